import type { ObjectId } from 'mongodb';
import type { Withheld } from '../../moderation/documents';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { ReportTargetType } from '../documents';

// The hold reports put on a post, comment or rider (`withheld: { reason: 'reports' }`): shown to its author only
// until an admin decides (docs/moderation.md, "Reports and the queue"). The read side hides it from others.

/**
 * Distinct riders with an open report on the target: the partial unique index on reporter and target
 * (worker/social/indexes.ts) lets a rider hold one open report per target, so counting reports counts riders.
 * Model reports and reports whose rider deleted their account have no reporter and are no rider.
 */
export function openReportersOf(store: Store, type: ReportTargetType, id: ObjectId): Promise<number> {
  return store.reports.countDocuments({
    targetType: type,
    targetId: anyIdOf(id),
    status: 'open',
    reporterId: { $exists: true },
  });
}

/** Sets or unsets the hold on the target's own document. */
function updateTarget(store: Store, type: ReportTargetType, id: ObjectId, hold: Withheld | null, onlyIfFree: boolean) {
  const filter = { _id: anyIdOf(id), ...(onlyIfFree ? { withheld: { $exists: false } } : {}) };
  const update = hold ? { $set: { withheld: hold } } : { $unset: { withheld: '' as const } };
  if (type === 'post') return store.feed_posts.updateOne(filter, update);
  if (type === 'comment') return store.feed_comments.updateOne(filter, update);
  return store.users.updateOne(filter, update);
}

/**
 * After a rider's report is stored: holds the target once enough distinct riders report it. The count runs after
 * the report's own write, so of reports landing at once the last to count sees them all; the hold is set only where
 * none is (a model's `review` hold stays as it is). Answers whether this call set it.
 */
export async function withholdIfReported(store: Store, type: ReportTargetType, id: ObjectId, now: Date) {
  if ((await openReportersOf(store, type, id)) < LIMITS.report.withholdAtRiders) return false;
  const result = await updateTarget(store, type, id, { reason: 'reports', at: now }, true);
  return result.modifiedCount > 0;
}

/** An admin dismissed the target's reports: whatever held it (reports or the model) is lifted. */
export async function releaseWithheld(store: Store, type: ReportTargetType, id: ObjectId): Promise<void> {
  await updateTarget(store, type, id, null, false);
}
