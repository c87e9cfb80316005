import { type Filter, ObjectId } from 'mongodb';
import type { SpotListDoc } from '../db/documents';
import type { Store } from '../db/store';
import { LIMITS } from '../limits';
import { spotExists } from '../spots/service';
import { releaseListSlot, startListCount } from './list-count';

// Every query of spot lists. A list is only ever found with its owner in the filter, so another
// user's list and a missing one are the same 'not-found' (product decisions: private, 404).

const owned = (listId: ObjectId, userId: ObjectId): Filter<SpotListDoc> => ({ _id: listId, userId });

/** Stores a new list; the caller holds a slot from worker/spot-lists/subscription.ts. */
export async function insertSpotList(store: Store, userId: ObjectId, name: string): Promise<SpotListDoc> {
  const now = new Date();
  const list: SpotListDoc = { _id: new ObjectId(), userId, name, spotIds: [], createdAt: now, updatedAt: now };
  await store.spotlists.insertOne(list);
  return list;
}

/** The user's lists, newest first, `limit + 1` rows for the pager. */
export function listSpotLists(store: Store, userId: ObjectId, page: { cursor?: ObjectId; limit: number }) {
  const filter: Filter<SpotListDoc> = page.cursor ? { userId, _id: { $lt: page.cursor } } : { userId };
  return store.spotlists
    .find(filter)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export function countSpotLists(store: Store, userId: ObjectId): Promise<number> {
  return store.spotlists.countDocuments({ userId });
}

export const findSpotList = (store: Store, listId: ObjectId, userId: ObjectId) =>
  store.spotlists.findOne(owned(listId, userId));

export async function renameSpotList(
  store: Store,
  listId: ObjectId,
  userId: ObjectId,
  changes: { name?: string },
): Promise<SpotListDoc | 'not-found'> {
  const updated = await store.spotlists.findOneAndUpdate(
    owned(listId, userId),
    { $set: { ...changes, updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
  return updated ?? 'not-found';
}

export async function deleteSpotList(store: Store, listId: ObjectId, userId: ObjectId): Promise<boolean> {
  // The counter must exist before the lists change (worker/spot-lists/list-count.ts says why).
  await startListCount(store, userId);
  const { deletedCount } = await store.spotlists.deleteOne(owned(listId, userId));
  if (deletedCount) await releaseListSlot(store, userId);
  return deletedCount > 0;
}

/**
 * Adds a spot once: the filter only matches while the spot is absent and the list has room, so
 * a repeated or concurrent PUT changes nothing (not even `updatedAt`).
 */
export async function addSpotToList(
  store: Store,
  listId: ObjectId,
  userId: ObjectId,
  spotId: ObjectId,
): Promise<SpotListDoc | 'not-found' | 'spot-not-found' | 'list-full'> {
  if (!(await spotExists(store, spotId))) {
    return (await findSpotList(store, listId, userId)) ? 'spot-not-found' : 'not-found';
  }
  const added = await store.spotlists.findOneAndUpdate(
    {
      ...owned(listId, userId),
      spotIds: { $ne: spotId },
      [`spotIds.${LIMITS.spotsPerListMax - 1}`]: { $exists: false },
    },
    { $addToSet: { spotIds: spotId }, $set: { updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
  if (added) return added;
  const list = await findSpotList(store, listId, userId);
  if (!list) return 'not-found';
  return list.spotIds.some((id) => id.equals(spotId)) ? list : 'list-full';
}

/** Removes a spot if present; removing one that is not there answers the list unchanged. */
export async function removeSpotFromList(
  store: Store,
  listId: ObjectId,
  userId: ObjectId,
  spotId: ObjectId,
): Promise<SpotListDoc | 'not-found'> {
  const removed = await store.spotlists.findOneAndUpdate(
    { ...owned(listId, userId), spotIds: spotId },
    { $pull: { spotIds: spotId }, $set: { updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
  return removed ?? (await findSpotList(store, listId, userId)) ?? 'not-found';
}
