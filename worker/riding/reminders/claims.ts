import type { ObjectId } from 'mongodb';
import type { DueQueue, SettlementWrite } from '../../platform/db/claimed-batches';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc } from '../documents';

// The reminder run's queue on scheduledNotifications (worker/platform/db/claimed-batches.ts claims and settles it).

/** What became of one claimed row in this run (docs/reminders.md, "What the run does with a due reminder"). */
export type Settlement =
  | { row: ScheduledNotificationDoc; to: 'sent'; trickId: ObjectId }
  | { row: ScheduledNotificationDoc; to: 'cancelled' | 'failed'; reason: string; attempted: boolean }
  | { row: ScheduledNotificationDoc; to: 'retry'; reason: string };

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
  const $inc = { attemptCount: 1 };
  if (s.to === 'sent') {
    return {
      $set: { status: 'sent', sentAt: now, sentVia: 'server', sentTrickId: s.trickId, lastAttemptAt: now },
      $inc,
    };
  }
  if (s.to === 'retry') {
    const leaseUntil = new Date(now.getTime() + LIMITS.reminders.retryDelayMinutes * 60_000);
    return { $set: { leaseUntil, lastAttemptAt: now, outcomeReason: s.reason }, $inc };
  }
  if (!s.attempted) return { $set: { status: s.to, outcomeReason: s.reason } };
  return { $set: { status: s.to, outcomeReason: s.reason, lastAttemptAt: now }, $inc };
}
