import { type Filter, ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { MobilePlatform, MobileVersionPolicyChangeDoc, VersionPolicyFields } from '../documents';

// Every query on the mobile version policies and their append-only history.

export const findPolicy = (store: Store, platform: MobilePlatform) =>
  store.mobile_version_policies.findOne({ platform });

/**
 * Sets the platform's policy and raises policyRevision by one in one atomic update, then appends the
 * change to the history: concurrent changes each get their own revision and their own history row.
 */
export async function changePolicy(
  store: Store,
  platform: MobilePlatform,
  policy: VersionPolicyFields,
  change: { reason: string; actorId: ObjectId },
) {
  const now = new Date();
  const upsert = () =>
    store.mobile_version_policies.findOneAndUpdate(
      { platform },
      {
        $set: { ...policy, updatedAt: now },
        $inc: { policyRevision: 1 },
        $setOnInsert: { _id: new ObjectId(), createdAt: now },
      },
      { upsert: true, returnDocument: 'after' },
    );
  // Two first-ever changes raced to insert: the loser updates the winner's document (unique platform).
  const updated = await onDuplicateKey(upsert, upsert);
  if (!updated) throw new Error(`version policy upsert for ${platform} returned nothing`);
  await store.mobile_version_policy_history.insertOne({
    _id: new ObjectId(),
    platform,
    policyRevision: updated.policyRevision,
    reason: change.reason,
    actorId: change.actorId,
    changedAt: now,
    policy,
  });
  return updated;
}

/** A platform's changes, newest revision first, `limit + 1` rows for the pager. */
export function policyHistory(
  store: Store,
  platform: MobilePlatform,
  page: { limit: number; beforeRevision?: number },
): Promise<MobileVersionPolicyChangeDoc[]> {
  const filter: Filter<MobileVersionPolicyChangeDoc> = { platform };
  if (page.beforeRevision !== undefined) filter.policyRevision = { $lt: page.beforeRevision };
  return store.mobile_version_policy_history
    .find(filter)
    .sort({ policyRevision: -1 })
    .limit(page.limit + 1)
    .toArray();
}
