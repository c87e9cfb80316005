import { type AnyBulkWriteOperation, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { EventNotificationJobDoc } from '../documents';
import { openDigestKey } from '../subscriptions/match';

// The notification run's queries on eventNotificationJobs (the reminder run's pattern, worker/riding/reminders/claims.ts):
// claim a batch of due jobs under a lease, then settle each one while the lease is still this batch's.

export interface ClaimedJobs {
  seen: number;
  rows: EventNotificationJobDoc[];
  batchId: string;
}

/**
 * Claims up to `size` due jobs: the soonest due ids (index status_dueAt), one conditional `updateMany`
 * that leases only jobs still pending and unleased (two overlapping runs never hold one job), and a read
 * of the jobs that carry this batch's lease.
 */
export async function claimDueJobs(store: Store, now: Date, size: number): Promise<ClaimedJobs> {
  const batchId = new ObjectId().toHexString();
  const due = { status: 'pending' as const, dueAt: { $lte: now }, leaseUntil: { $lte: now } };
  const candidates = await store.eventNotificationJobs
    .find(due, { projection: { _id: 1 } })
    .sort({ dueAt: 1 })
    .limit(size)
    .toArray();
  if (!candidates.length) return { seen: 0, rows: [], batchId };
  const ids = candidates.map((row) => row._id);
  const leaseUntil = new Date(now.getTime() + LIMITS.eventNotifications.leaseMinutes * 60_000);
  await store.eventNotificationJobs.updateMany(
    { _id: { $in: ids }, ...due },
    { $set: { leaseId: batchId, leaseUntil } },
  );
  const rows = await store.eventNotificationJobs.find({ _id: { $in: ids }, leaseId: batchId }).toArray();
  return { seen: ids.length, rows, batchId };
}

/** The key a digest takes once it stops gathering events: the next match opens a new digest. */
export const closedDigestKey = (row: Pick<EventNotificationJobDoc, '_id' | 'subscriptionId'>) =>
  `${openDigestKey(row.subscriptionId!)}:${row._id.toHexString()}`;

/**
 * Takes the subscription's digest window for a claimed digest: an atomic conditional update that
 * succeeds only when no digest went out in the last 24 hours, so at most one per rolling window
 * whatever runs overlap. Then closes the digest (new matches open the next one) and reads the events
 * it gathered up to that moment. Answers the closed row, 'wait' with when the window opens, or 'gone'.
 */
export async function takeDigestWindow(
  store: Store,
  row: EventNotificationJobDoc,
  batchId: string,
  now: Date,
): Promise<{ row: EventNotificationJobDoc } | { wait: Date } | 'gone'> {
  const subscriptionId = row.subscriptionId!;
  if (!row.windowAt) {
    const windowMs = LIMITS.eventNotifications.digestWindowHours * 3_600_000;
    const opened = await store.eventSubscriptions.updateOne(
      {
        _id: subscriptionId,
        $or: [{ lastDigestAt: null }, { lastDigestAt: { $lte: new Date(now.getTime() - windowMs) } }],
      },
      { $set: { lastDigestAt: now } },
    );
    if (!opened.modifiedCount) {
      const subscription = await store.eventSubscriptions.findOne(
        { _id: subscriptionId },
        { projection: { lastDigestAt: 1 } },
      );
      if (!subscription) return 'gone';
      return { wait: new Date((subscription.lastDigestAt ?? now).getTime() + windowMs) };
    }
  }
  const closed = await store.eventNotificationJobs.findOneAndUpdate(
    { _id: row._id, leaseId: batchId },
    { $set: { jobKey: closedDigestKey(row), windowAt: row.windowAt ?? now, updatedAt: now } },
    { returnDocument: 'after' },
  );
  return closed ? { row: closed } : 'gone';
}

export type JobSettlement =
  | { row: EventNotificationJobDoc; to: 'sent' }
  | { row: EventNotificationJobDoc; to: 'skipped' | 'failed'; reason: string; attempted: boolean }
  | { row: EventNotificationJobDoc; to: 'retry'; reason: string; at: Date };

/** Writes every settlement of a batch in one bulk write; each holds only while the job is still this batch's. */
export async function settleJobs(
  store: Store,
  batchId: string,
  settlements: JobSettlement[],
  now: Date,
): Promise<void> {
  if (!settlements.length) return;
  const operations = settlements.map((s): AnyBulkWriteOperation<EventNotificationJobDoc> => {
    const filter = { _id: s.row._id, leaseId: batchId, status: 'pending' as const };
    const released = { leaseId: null, updatedAt: now };
    // A settled digest no longer takes events, whether or not it went out.
    const closed = s.row.kind === 'digest' && s.to !== 'retry' ? { jobKey: closedDigestKey(s.row) } : {};
    if (s.to === 'sent') {
      const $set = { ...released, ...closed, status: 'sent' as const, sentAt: now, outcomeReason: null };
      return { updateOne: { filter, update: { $set, $inc: { attemptCount: 1 } } } };
    }
    if (s.to === 'retry') {
      const $set = { ...released, dueAt: s.at, leaseUntil: s.at, outcomeReason: s.reason };
      return { updateOne: { filter, update: s.reason === 'window' ? { $set } : { $set, $inc: { attemptCount: 1 } } } };
    }
    const $set = { ...released, ...closed, status: s.to, outcomeReason: s.reason };
    return { updateOne: { filter, update: s.attempted ? { $set, $inc: { attemptCount: 1 } } : { $set } } };
  });
  await store.eventNotificationJobs.bulkWrite(operations, { ordered: false });
}
