import { type Filter, ObjectId } from 'mongodb';
import type { TrickListDoc } from '../db/documents';
import type { Store } from '../db/store';

// Every query on trick lists. Each one is scoped by the owner's id, so another rider's list is simply not found.

export type NewTrickList = Pick<TrickListDoc, 'name' | 'sport' | 'reminderCadence'>;
export type TrickListChanges = Partial<NewTrickList>;

const owned = (userId: ObjectId, listId: ObjectId): Filter<TrickListDoc> => ({ _id: listId, userId });

export async function insertTrickList(store: Store, userId: ObjectId, fields: NewTrickList): Promise<TrickListDoc> {
  const now = new Date();
  const list: TrickListDoc = { _id: new ObjectId(), userId, ...fields, createdAt: now, updatedAt: now };
  await store.tricklists.insertOne(list);
  return list;
}

/** The caller's lists, newest first, `limit + 1` rows for the pager. */
export function findTrickLists(
  store: Store,
  userId: ObjectId,
  page: { cursor?: ObjectId; limit: number },
): Promise<TrickListDoc[]> {
  const filter: Filter<TrickListDoc> = page.cursor ? { userId, _id: { $lt: page.cursor } } : { userId };
  return store.tricklists
    .find(filter)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export function countTrickLists(store: Store, userId: ObjectId): Promise<number> {
  return store.tricklists.countDocuments({ userId });
}

/** The owner opening a list: `lastOpenedAt` is stamped in the same write that reads the list. */
export function openTrickList(store: Store, userId: ObjectId, listId: ObjectId): Promise<TrickListDoc | null> {
  return store.tricklists.findOneAndUpdate(
    owned(userId, listId),
    { $set: { lastOpenedAt: new Date() } },
    { returnDocument: 'after' },
  );
}

export async function ownsTrickList(store: Store, userId: ObjectId, listId: ObjectId): Promise<boolean> {
  return (await store.tricklists.countDocuments(owned(userId, listId), { limit: 1 })) > 0;
}

export function updateTrickList(
  store: Store,
  userId: ObjectId,
  listId: ObjectId,
  changes: TrickListChanges,
): Promise<TrickListDoc | null> {
  return store.tricklists.findOneAndUpdate(
    owned(userId, listId),
    { $set: { ...changes, updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
}

/** Removes the list itself; its tricks go through worker/tricks/service.ts. */
export async function deleteTrickList(store: Store, userId: ObjectId, listId: ObjectId): Promise<boolean> {
  return (await store.tricklists.deleteOne(owned(userId, listId))).deletedCount === 1;
}
