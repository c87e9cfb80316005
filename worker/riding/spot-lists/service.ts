import { type Document, ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import type { Store } from '../../platform/db/store';
import { storedNumber } from '../../platform/db/stored-expressions';
import { idForms, readIds, readOne } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { SpotListDoc } from '../documents';
import { spotExists } from '../spots/service';
import { readSpotList, type SpotList } from './reader';

// Every query of spot lists. A list is only ever found with its owner in the filter, so another
// user's list and a missing one are the same 'not-found' (product decisions: private, 404). Ids match
// whether older code stored them as ObjectIds or hex strings.

const ownedBy = (userId: ObjectId): Document => ({ userId: { $in: idForms(userId) } });
const owned = (listId: ObjectId, userId: ObjectId): Document => ({ _id: { $in: idForms(listId) }, ...ownedBy(userId) });
const readList = (doc: SpotListDoc | null) => readOne('spotlists', doc, readSpotList) ?? null;

/** Stores a new list; the caller holds a slot from worker/riding/spot-lists/subscription.ts. */
export async function insertSpotList(store: Store, userId: ObjectId, name: string): Promise<SpotList> {
  const now = new Date();
  const list: SpotListDoc = { _id: new ObjectId(), userId, name, spotIds: [], createdAt: now, updatedAt: now };
  await store.spotlists.insertOne(list);
  return readSpotList(list)!;
}

/** The user's lists, newest first, `limit + 1` rows for the pager. */
export function listSpotLists(store: Store, userId: ObjectId, page: { cursor?: ObjectId; limit: number }) {
  const filter: Document = page.cursor ? { ...ownedBy(userId), _id: { $lt: page.cursor } } : ownedBy(userId);
  return store.spotlists
    .find(filter)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export function countSpotLists(store: Store, userId: ObjectId): Promise<number> {
  return store.spotlists.countDocuments(ownedBy(userId));
}

export const findSpotList = async (store: Store, listId: ObjectId, userId: ObjectId) =>
  readList(await store.spotlists.findOne(owned(listId, userId)));

export async function renameSpotList(
  store: Store,
  listId: ObjectId,
  userId: ObjectId,
  changes: { name?: string },
): Promise<SpotList | 'not-found'> {
  const updated = await store.spotlists.findOneAndUpdate(
    owned(listId, userId),
    { $set: { ...changes, updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
  return readList(updated) ?? 'not-found';
}

export async function deleteSpotList(store: Store, listId: ObjectId, userId: ObjectId): Promise<boolean> {
  // The counter must exist before the lists change (the counter's comment below says why).
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
): Promise<SpotList | 'not-found' | 'spot-not-found' | 'list-full'> {
  if (!(await spotExists(store, spotId))) {
    return (await findSpotList(store, listId, userId)) ? 'spot-not-found' : 'not-found';
  }
  await repairSpotIds(store, listId, userId);
  const added = readList(
    await store.spotlists.findOneAndUpdate(
      {
        ...owned(listId, userId),
        spotIds: { $nin: idForms(spotId) },
        [`spotIds.${LIMITS.spotsPerListMax - 1}`]: { $exists: false },
      } as Document,
      { $addToSet: { spotIds: spotId }, $set: { updatedAt: new Date() } },
      { returnDocument: 'after' },
    ),
  );
  if (added)
    await recordServerEvent(store, userId, 'spot_saved', {
      spotId: spotId.toHexString(),
      spotListId: listId.toHexString(),
    });
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
): Promise<SpotList | 'not-found'> {
  await repairSpotIds(store, listId, userId);
  const removed = await store.spotlists.findOneAndUpdate(
    { ...owned(listId, userId), spotIds: { $in: idForms(spotId) } } as Document,
    { $pull: { spotIds: { $in: idForms(spotId) } }, $set: { updatedAt: new Date() } } as Document,
    { returnDocument: 'after' },
  );
  return readList(removed) ?? (await findSpotList(store, listId, userId)) ?? 'not-found';
}

/**
 * Older code stored some lists' spot ids as one id or as an object: rewritten as the array they read as, so
 * `$addToSet` and `$pull` can work on it. The filter pins the value read, so a concurrent repair changes nothing.
 */
async function repairSpotIds(store: Store, listId: ObjectId, userId: ObjectId): Promise<void> {
  const stored = await store.spotlists.findOne(owned(listId, userId), { projection: { spotIds: 1 } });
  if (!stored || Array.isArray(stored.spotIds)) return;
  const pinned = stored.spotIds === undefined ? { $exists: false } : stored.spotIds;
  await store.spotlists.updateOne({ _id: stored._id, spotIds: pinned } as Document, {
    $set: { spotIds: readIds(stored.spotIds) },
  });
}

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
  // The counter as older code may have stored it (text, Int64) is read and added to in the same write.
  const count = storedNumber('$spotListCount');
  const below = ownedBelow === undefined ? {} : { $expr: { $lt: [count, ownedBelow] } };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const { matchedCount } = await store.users.updateOne({ _id: userId, spotListCount: { $exists: true }, ...below }, [
      { $set: { spotListCount: { $add: [count, 1] } } },
    ]);
    if (matchedCount) return true;
    // No match: no such account, a counter not started yet (start it, then try once more; a
    // concurrent request may have started it meanwhile), or the allowance is used up.
    if (!(await startListCount(store, userId))) return false;
  }
  return false;
}

/** Gives back a slot: a create that stored nothing, or a deleted list. Never below zero. */
export async function releaseListSlot(store: Store, userId: ObjectId): Promise<void> {
  const count = storedNumber('$spotListCount');
  await store.users.updateOne({ _id: userId, $expr: { $gt: [count, 0] } }, [
    { $set: { spotListCount: { $subtract: [count, 1] } } },
  ]);
}

/**
 * Starts the counter of an account that has none (accounts and lists from before it) from a
 * count of its lists. True when the account exists and so, now, does its counter. Only the first such
 * write lands (`$exists: false`), and every insert and delete of a list starts the counter
 * before changing the lists, so no change can fall between that count and that write.
 */
export async function startListCount(store: Store, userId: ObjectId): Promise<boolean> {
  const user = await store.users.findOne({ _id: userId }, { projection: { spotListCount: 1 } });
  if (!user) return false;
  if (user.spotListCount !== undefined) return true;
  const owned = await store.spotlists.countDocuments(ownedBy(userId));
  await store.users.updateOne({ _id: userId, spotListCount: { $exists: false } }, { $set: { spotListCount: owned } });
  return true;
}

/** A deleted spot leaves every rider's spot lists. */
export async function removeSpotFromAllLists(store: Store, spotId: ObjectId): Promise<void> {
  await store.spotlists.updateMany(
    { spotIds: { $in: idForms(spotId) } } as Document,
    {
      $pull: { spotIds: { $in: idForms(spotId) } },
      $set: { updatedAt: new Date() },
    } as Document,
  );
}
