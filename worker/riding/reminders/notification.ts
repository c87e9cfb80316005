import type { Notification } from '../../notifications/push/deliver';
import { fitBody, fitTitle } from '../../notifications/push/text';
import type { ScheduledNotificationDoc } from '../documents';
import type { OutstandingTrick } from '../tricks/service';

/** The app-relative deep link a reminder opens: the list, marked as opened from a reminder (docs/reminders.md). */
export function reminderDeepLink(listId: string, trickId: string): string {
  return `/tricklists/${listId}?fromReminder=1&trickId=${trickId}`;
}

/** One reminder as the interface spec's reminders part shapes it: one trick, title <= 30, body <= 80. */
export function reminderNotification(
  row: Pick<ScheduledNotificationDoc, 'listId' | 'idempotencyKey'>,
  listName: string,
  trick: OutstandingTrick,
): Notification {
  const listId = row.listId.toHexString();
  const trickId = trick._id.toHexString();
  return {
    title: fitTitle(listName),
    body: fitBody(`Still on your list: ${trick.name}. Time for a session?`),
    threadId: `reminder-${listId}`,
    channelId: 'reminders',
    data: {
      url: reminderDeepLink(listId, trickId),
      category: 'reminders',
      idempotencyKey: row.idempotencyKey,
      listId,
      trickId,
    },
  };
}
