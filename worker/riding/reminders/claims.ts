import type { ObjectId } from 'mongodb';
import type { DueQueue, SettlementWrite } from '../../platform/db/claimed-batches';
import type { Store } from '../../platform/db/store';
import { readCount } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc } from '../documents';

// The reminder run's queue on scheduledNotifications (worker/platform/db/claimed-batches.ts claims and settles it).

/** What became of one claimed row in this run (docs/reminders.md, "What the run does with a due reminder"). */
export type Settlement =
  | { row: ScheduledNotificationDoc; to: 'sent'; trickId: ObjectId }
  | { row: ScheduledNotificationDoc; to: 'cancelled' | 'failed'; reason: string; attempted: boolean }
  | { row: ScheduledNotificationDoc; to: 'retry'; reason: string }
  | { row: ScheduledNotificationDoc; to: 'skipped'; reason: string };

/** Due reminders, soonest first, in batches of LIMITS.reminders.runBatchRows. */
export const reminderQueue = (store: Store): DueQueue<ScheduledNotificationDoc, Settlement> => ({
  rows: store.scheduledNotifications,
  dueField: 'scheduledFor',
  leaseMinutes: LIMITS.reminders.leaseMinutes,
  batchRows: LIMITS.reminders.runBatchRows,
  runMaxRows: LIMITS.reminders.runMaxRows,
  write: settlementWrite,
});

function settlementWrite(s: Settlement, now: Date): SettlementWrite<ScheduledNotificationDoc> {
  // Counted from the value read: the row is this batch's until settled (the settlement's filter holds its lease),
  // so nothing moves it meanwhile, and a count stored as text gets a number rather than failing the batch.
  const attempted = { lastAttemptAt: now, attemptCount: (readCount(s.row.attemptCount) ?? 0) + 1 };
  if (s.to === 'sent') {
    return { $set: { status: 'sent', sentAt: now, sentVia: 'server', sentTrickId: s.trickId, ...attempted } };
  }
  if (s.to === 'retry') {
    const leaseUntil = new Date(now.getTime() + LIMITS.reminders.retryDelayMinutes * 60_000);
    return { $set: { leaseUntil, outcomeReason: s.reason, ...attempted } };
  }
  if (s.to === 'skipped') return { $set: { status: 'failed', outcomeReason: s.reason } };
  if (!s.attempted) return { $set: { status: s.to, outcomeReason: s.reason } };
  return { $set: { status: s.to, outcomeReason: s.reason, ...attempted } };
}
