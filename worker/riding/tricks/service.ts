import { type Filter, ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import type { Store } from '../../platform/db/store';
import type { TrickDoc } from '../documents';
import { entryExists } from '../trickipedia/service';
import { ownsTrickList } from '../tricklists/service';

// Every query on tricks. Each is scoped by the owner and the list, so another rider's trick is simply not found.

/** Whose list a trick request is about: the caller and the list in the path. */
export interface TrickOwner {
  userId: ObjectId;
  listId: ObjectId;
}

export interface NewTrick {
  name: string;
  status: 'todo' | 'learning';
  trickipediaId?: ObjectId;
}

export type TrickChanges = Partial<Omit<NewTrick, 'trickipediaId'>> & { trickipediaId?: ObjectId | null };

const ownedTrick = (owner: TrickOwner, trickId: ObjectId): Filter<TrickDoc> => ({ _id: trickId, ...owner });

/** The ids a trick's analytics events carry (worker/growth/analytics/taxonomy.ts). */
const trickEvent = (trick: TrickDoc) => ({
  trickId: trick._id.toHexString(),
  trickListId: trick.listId.toHexString(),
  ...(trick.trickipediaId ? { trickipediaId: trick.trickipediaId.toHexString() } : {}),
});

export async function addTrick(
  store: Store,
  owner: TrickOwner,
  fields: NewTrick,
): Promise<TrickDoc | 'list-not-found' | 'trickipedia-not-found'> {
  if (!(await ownsTrickList(store, owner.userId, owner.listId))) return 'list-not-found';
  if (fields.trickipediaId && !(await entryExists(store, fields.trickipediaId))) {
    return 'trickipedia-not-found';
  }
  const now = new Date();
  const trick: TrickDoc = {
    _id: new ObjectId(),
    ...owner,
    ...fields,
    attempts: 0,
    completed: false,
    landedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.tricks.insertOne(trick);
  // A list deleted between the check and the insert would keep this trick forever: look again and undo.
  if (!(await ownsTrickList(store, owner.userId, owner.listId))) {
    await store.tricks.deleteOne({ _id: trick._id });
    return 'list-not-found';
  }
  await recordServerEvent(store, owner.userId, 'trick_added', trickEvent(trick));
  return trick;
}

/** A page of the list's tricks, newest first, `limit + 1` rows for the pager. */
export async function findTricks(
  store: Store,
  owner: TrickOwner,
  page: { cursor?: ObjectId; limit: number },
): Promise<TrickDoc[] | 'list-not-found'> {
  if (!(await ownsTrickList(store, owner.userId, owner.listId))) return 'list-not-found';
  const filter: Filter<TrickDoc> = page.cursor ? { ...owner, _id: { $lt: page.cursor } } : { ...owner };
  return store.tricks
    .find(filter)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export async function updateTrick(
  store: Store,
  owner: TrickOwner,
  trickId: ObjectId,
  changes: TrickChanges,
): Promise<TrickDoc | 'not-found' | 'trickipedia-not-found'> {
  const { trickipediaId, ...rest } = changes;
  if (trickipediaId && !(await entryExists(store, trickipediaId))) return 'trickipedia-not-found';
  const set: Partial<TrickDoc> = { ...rest, updatedAt: new Date() };
  if (trickipediaId) set.trickipediaId = trickipediaId;
  // Settable statuses are todo and learning: a landed trick moved back is no longer landed.
  if (rest.status) Object.assign(set, { completed: false, landedAt: null });
  const updated = await store.tricks.findOneAndUpdate(
    ownedTrick(owner, trickId),
    trickipediaId === null ? { $set: set, $unset: { trickipediaId: '' } } : { $set: set },
    { returnDocument: 'after' },
  );
  return updated ?? 'not-found';
}

export async function deleteTrick(store: Store, owner: TrickOwner, trickId: ObjectId): Promise<boolean> {
  return (await store.tricks.deleteOne(ownedTrick(owner, trickId))).deletedCount === 1;
}

/** One more attempt, and a `todo` trick becomes `learning`, in one atomic write (an update pipeline). */
export async function logAttempt(store: Store, owner: TrickOwner, trickId: ObjectId): Promise<TrickDoc | null> {
  const trick = await store.tricks.findOneAndUpdate(
    ownedTrick(owner, trickId),
    [
      {
        $set: {
          attempts: { $add: [{ $ifNull: ['$attempts', 0] }, 1] },
          status: { $cond: [{ $eq: ['$status', 'todo'] }, 'learning', '$status'] },
          updatedAt: new Date(),
        },
      },
    ],
    { returnDocument: 'after' },
  );
  if (trick)
    await recordServerEvent(store, owner.userId, 'trick_attempt_logged', {
      ...trickEvent(trick),
      attempts: trick.attempts,
    });
  return trick;
}

/**
 * Lands the trick once: only a trick not yet landed matches the write, so a second or
 * concurrent landing changes nothing and gets the trick as it stands.
 */
export async function landTrick(store: Store, owner: TrickOwner, trickId: ObjectId): Promise<TrickDoc | null> {
  const now = new Date();
  const landed = await store.tricks.findOneAndUpdate(
    { ...ownedTrick(owner, trickId), status: { $ne: 'landed' } },
    { $set: { status: 'landed', completed: true, landedAt: now, updatedAt: now } },
    { returnDocument: 'after' },
  );
  if (landed) await recordServerEvent(store, owner.userId, 'trick_landed', trickEvent(landed));
  return landed ?? store.tricks.findOne(ownedTrick(owner, trickId));
}

/** Trick counts of a page of lists, in one aggregation over the `{listId, _id}` index. */
export async function countTricksPerList(
  store: Store,
  userId: ObjectId,
  listIds: ObjectId[],
): Promise<Map<string, number>> {
  const rows = await store.tricks
    .aggregate<{ _id: ObjectId; count: number }>([
      { $match: { listId: { $in: listIds }, userId } },
      { $group: { _id: '$listId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id.toHexString(), row.count]));
}

export function countTricks(store: Store, owner: TrickOwner): Promise<number> {
  return store.tricks.countDocuments({ ...owner });
}

/** A deleted list's tricks; scoped by owner, so sweeping after the list is gone is safe to repeat. */
export async function deleteTricksOfList(store: Store, owner: TrickOwner): Promise<number> {
  return (await store.tricks.deleteMany({ ...owner })).deletedCount;
}

/** A list's longest-outstanding unfinished trick, the one a reminder names (the interface spec's reminders part). */
export type OutstandingTrick = Pick<TrickDoc, '_id' | 'listId' | 'name'>;

/** A trick a reminder row names, with whether it is complete (landed). */
export type NamedTrick = Pick<TrickDoc, '_id' | 'listId' | 'name' | 'completed'>;

/** The tricks of these ids that still exist, by id, in one query. */
export async function findTricksByIds(store: Store, ids: ObjectId[]): Promise<Map<string, NamedTrick>> {
  if (!ids.length) return new Map();
  const rows = await store.tricks
    .find({ _id: { $in: ids } }, { projection: { listId: 1, name: 1, completed: 1 } })
    .toArray();
  return new Map(rows.map((row) => [row._id.toHexString(), row]));
}

/** The longest-outstanding unfinished trick of each list (oldest first by creation), in one aggregation. */
export async function longestOutstandingTricks(
  store: Store,
  listIds: ObjectId[],
): Promise<Map<string, OutstandingTrick>> {
  const rows = await store.tricks
    .aggregate<{ _id: ObjectId; trickId: ObjectId; name: string }>([
      { $match: { listId: { $in: listIds }, completed: { $ne: true } } },
      { $sort: { listId: 1, createdAt: 1, _id: 1 } },
      { $group: { _id: '$listId', trickId: { $first: '$_id' }, name: { $first: '$name' } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id.toHexString(), { _id: row.trickId, listId: row._id, name: row.name }]));
}
