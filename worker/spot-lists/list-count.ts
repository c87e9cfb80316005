import type { ObjectId } from 'mongodb';
import type { Store } from '../db/store';

// `users.spotListCount` is how many spot lists the user owns, moved only by conditional `$inc`s:
// a create reserves its slot with one atomic update before inserting, so ten concurrent
// creates by a free user owning 2 lists cannot all pass a count, exactly one increment matches.
// A create that then stores nothing gives its slot back; a crash in between over-counts by one
// (the safe direction: never a list over the allowance).

/**
 * Reserves a slot for one more list: while the user owns fewer than `ownedBelow`, or with no
 * limit when it is undefined (premium). False when refused, or when there is no such account.
 */
export async function reserveListSlot(store: Store, userId: ObjectId, ownedBelow?: number): Promise<boolean> {
  const owned = ownedBelow === undefined ? { $exists: true } : { $lt: ownedBelow };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const { matchedCount } = await store.users.updateOne(
      { _id: userId, spotListCount: owned },
      { $inc: { spotListCount: 1 } },
    );
    if (matchedCount) return true;
    if (!(await startListCount(store, userId))) return false;
  }
  return false;
}

/** Gives back a slot: a create that stored nothing, or a deleted list. Never below zero. */
export async function releaseListSlot(store: Store, userId: ObjectId): Promise<void> {
  await store.users.updateOne({ _id: userId, spotListCount: { $gt: 0 } }, { $inc: { spotListCount: -1 } });
}

/**
 * Starts the counter of an account that has none (accounts and lists from before it) from a
 * count of its lists. True when the counter was missing and now exists. Only the first such
 * write lands (`$exists: false`), and every insert and delete of a list starts the counter
 * before changing the lists, so no change can fall between that count and that write.
 */
export async function startListCount(store: Store, userId: ObjectId): Promise<boolean> {
  const user = await store.users.findOne({ _id: userId }, { projection: { spotListCount: 1 } });
  if (!user || user.spotListCount !== undefined) return false;
  const owned = await store.spotlists.countDocuments({ userId });
  await store.users.updateOne({ _id: userId, spotListCount: { $exists: false } }, { $set: { spotListCount: owned } });
  return true;
}
