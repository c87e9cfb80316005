import type { DueQueue, SettlementWrite } from '../../platform/db/claimed-batches';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { readDate } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { EventNotificationJobDoc } from '../documents';
import { readEventNotificationJob } from '../stored-subscription';
import { openDigestKey } from '../subscriptions/match';

// The notification run's queue on eventNotificationJobs (worker/platform/db/claimed-batches.ts claims and
// settles it), and the digest window a claimed digest takes while its lease is still this batch's.

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
        _id: anyIdOf(subscriptionId),
        // No digest sent is also a lastDigestAt older code left as no date at all.
        $or: [
          { lastDigestAt: { $not: { $type: 'date' } } },
          { lastDigestAt: { $lte: new Date(now.getTime() - windowMs) } },
        ],
      },
      { $set: { lastDigestAt: now } },
    );
    if (!opened.modifiedCount) {
      const subscription = await store.eventSubscriptions.findOne(
        { _id: anyIdOf(subscriptionId) },
        { projection: { lastDigestAt: 1 } },
      );
      if (!subscription) return 'gone';
      return { wait: new Date((readDate(subscription.lastDigestAt) ?? now).getTime() + windowMs) };
    }
  }
  const closed = await store.eventNotificationJobs.findOneAndUpdate(
    { _id: anyIdOf(row._id), leaseId: batchId },
    { $set: { jobKey: closedDigestKey(row), windowAt: row.windowAt ?? now, updatedAt: now } },
    { returnDocument: 'after' },
  );
  const read = closed && readEventNotificationJob(closed);
  return read ? { row: read } : 'gone';
}

export type JobSettlement =
  | { row: EventNotificationJobDoc; to: 'sent' }
  | { row: EventNotificationJobDoc; to: 'skipped' | 'failed'; reason: string; attempted: boolean }
  | { row: EventNotificationJobDoc; to: 'retry'; reason: string; at: Date };

/** Due jobs, soonest first (index status_dueAt), in batches of LIMITS.eventNotifications.runBatchJobs. */
export const notificationJobQueue = (store: Store): DueQueue<EventNotificationJobDoc, JobSettlement> => ({
  rows: store.eventNotificationJobs,
  dueField: 'dueAt',
  leaseMinutes: LIMITS.eventNotifications.leaseMinutes,
  batchRows: LIMITS.eventNotifications.runBatchJobs,
  runMaxRows: LIMITS.eventNotifications.runMaxJobs,
  write: settlementWrite,
});

/** The reason a claimed job that cannot be read settles as failed with, its other fields untouched. */
export const UNREADABLE_JOB = 'unreadable';

function settlementWrite(s: JobSettlement, now: Date): SettlementWrite<EventNotificationJobDoc> {
  if (s.to === 'failed' && s.reason === UNREADABLE_JOB) return { $set: { status: 'failed', outcomeReason: s.reason } };
  // The attempt count is set from the count as read (older code left it null or as text, where `$inc` fails);
  // the settlement holds only while this batch's lease does, so no other write moves it meanwhile.
  const attempt = { attemptCount: s.row.attemptCount + 1 };
  // A settled digest no longer takes events, whether or not it went out.
  const closed = s.row.kind === 'digest' && s.to !== 'retry' ? { jobKey: closedDigestKey(s.row) } : {};
  if (s.to === 'sent') return { $set: { ...closed, ...attempt, status: 'sent', sentAt: now, outcomeReason: null } };
  if (s.to === 'retry') {
    const $set = { dueAt: s.at, leaseUntil: s.at, outcomeReason: s.reason };
    // Waiting for the digest window is no attempt.
    return { $set: s.reason === 'window' ? $set : { ...$set, ...attempt } };
  }
  const $set = { ...closed, status: s.to, outcomeReason: s.reason };
  return { $set: s.attempted ? { ...$set, ...attempt } : $set };
}
