import type { ScheduledNotificationDoc } from '../documents';
import type { NamedTrick, OutstandingTrick } from '../tricks/service';

/**
 * The trick a reminder row names when it goes out, or null when the row is to be cancelled (`trick-complete`):
 * its own trick while that is unfinished; none once that trick is complete (the interface spec's state table);
 * the list's longest-outstanding trick for a row planned without one or whose trick was deleted.
 */
export function reminderTrick(
  row: Pick<ScheduledNotificationDoc, 'trickId' | 'listId'>,
  named: NamedTrick | undefined,
  outstanding: OutstandingTrick | undefined,
): OutstandingTrick | null {
  if (row.trickId && named?.listId.equals(row.listId)) return named.completed ? null : named;
  return outstanding ?? null;
}
