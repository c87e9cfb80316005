import { type AnyBulkWriteOperation, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc } from '../documents';

// The reminder run's queries on scheduledNotifications: claim a batch of due rows, then settle each one.

export interface ClaimedBatch {
  /** Due rows seen, whether this batch or an overlapping run claimed them. */
  seen: number;
  rows: ScheduledNotificationDoc[];
  batchId: string;
}

/**
 * Claims up to `size` due rows for one batch in three commands: the soonest due ids, a conditional
 * `updateMany` that leases only rows still pending and unleased (so two overlapping runs never hold one
 * row), and a read of the rows that carry this batch's lease.
 */
export async function claimDueBatch(store: Store, now: Date, size: number): Promise<ClaimedBatch> {
  const batchId = new ObjectId().toHexString();
  const due = { status: 'pending' as const, scheduledFor: { $lte: now }, leaseUntil: { $lte: now } };
  const candidates = await store.scheduledNotifications
    .find(due, { projection: { _id: 1 } })
    .sort({ scheduledFor: 1 })
    .limit(size)
    .toArray();
  if (!candidates.length) return { seen: 0, rows: [], batchId };
  const ids = candidates.map((row) => row._id);
  await store.scheduledNotifications.updateMany(
    { _id: { $in: ids }, ...due },
    { $set: { leaseId: batchId, leaseUntil: new Date(now.getTime() + LIMITS.reminders.leaseMinutes * 60_000) } },
  );
  const rows = await store.scheduledNotifications.find({ _id: { $in: ids }, leaseId: batchId }).toArray();
  return { seen: ids.length, rows, batchId };
}

/** What became of one claimed row in this run (docs/reminders.md, "What the run does with a due reminder"). */
export type Settlement =
  | { row: ScheduledNotificationDoc; to: 'sent'; trickId: ObjectId }
  | { row: ScheduledNotificationDoc; to: 'cancelled' | 'failed'; reason: string; attempted: boolean }
  | { row: ScheduledNotificationDoc; to: 'retry'; reason: string };

/** Writes every settlement of a batch in one bulk write; each update holds only while the row is still this batch's. */
export async function settleBatch(store: Store, batchId: string, settlements: Settlement[], now: Date): Promise<void> {
  if (!settlements.length) return;
  const operations = settlements.map((s): AnyBulkWriteOperation<ScheduledNotificationDoc> => {
    const filter = { _id: s.row._id, leaseId: batchId, status: 'pending' as const };
    const attempt = { $inc: { attemptCount: 1 }, lastAttemptAt: now };
    const released = { leaseId: null, updatedAt: now };
    if (s.to === 'sent') {
      const $set = { status: 'sent' as const, sentAt: now, sentVia: 'server' as const, sentTrickId: s.trickId };
      return {
        updateOne: { filter, update: { $set: { ...$set, ...released, lastAttemptAt: now }, $inc: attempt.$inc } },
      };
    }
    if (s.to === 'retry') {
      const leaseUntil = new Date(now.getTime() + LIMITS.reminders.retryDelayMinutes * 60_000);
      const $set = { ...released, leaseUntil, lastAttemptAt: now, outcomeReason: s.reason };
      return { updateOne: { filter, update: { $set, $inc: attempt.$inc } } };
    }
    const $set = { status: s.to, outcomeReason: s.reason, ...released, ...(s.attempted ? { lastAttemptAt: now } : {}) };
    return { updateOne: { filter, update: s.attempted ? { $set, $inc: attempt.$inc } : { $set } } };
  });
  await store.scheduledNotifications.bulkWrite(operations, { ordered: false });
}
