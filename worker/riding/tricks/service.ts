import { type Document, ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import type { Store } from '../../platform/db/store';
import { storedNumber } from '../../platform/db/stored-expressions';
import { idForms, readEach, readId, readOne, readString } from '../../platform/db/stored-values';
import type { TrickDoc } from '../documents';
import { entryExists } from '../trickipedia/service';
import { ownsTrickList } from '../tricklists/service';
import { readTrick, type Trick } from './reader';

// Every query on tricks. Each is scoped by the owner and the list, so another rider's trick is simply not found.
// Ids match whether older code stored them as ObjectIds or hex strings.

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

/** The owner's tricks in the list, with both ids in either stored form. */
const ofOwner = (owner: TrickOwner): Document => ({
  userId: { $in: idForms(owner.userId) },
  listId: { $in: idForms(owner.listId) },
});

const ownedTrick = (owner: TrickOwner, trickId: ObjectId): Document => ({
  _id: { $in: idForms(trickId) },
  ...ofOwner(owner),
});

const readStored = (doc: TrickDoc | null) => readOne('tricks', doc, readTrick) ?? null;

/** The ids a trick's analytics events carry (worker/growth/analytics/taxonomy.ts). */
const trickEvent = (trick: Trick) => ({
  trickId: trick._id.toHexString(),
  trickListId: trick.listId.toHexString(),
  ...(trick.trickipediaId ? { trickipediaId: trick.trickipediaId.toHexString() } : {}),
});

export async function addTrick(
  store: Store,
  owner: TrickOwner,
  fields: NewTrick,
): Promise<Trick | 'list-not-found' | 'trickipedia-not-found'> {
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
  const added = readTrick(trick)!;
  await recordServerEvent(store, owner.userId, 'trick_added', trickEvent(added));
  return added;
}

/** A page of the list's tricks, newest first, `limit + 1` rows for the pager. */
export async function findTricks(
  store: Store,
  owner: TrickOwner,
  page: { cursor?: ObjectId; limit: number },
): Promise<TrickDoc[] | 'list-not-found'> {
  if (!(await ownsTrickList(store, owner.userId, owner.listId))) return 'list-not-found';
  const filter: Document = page.cursor ? { ...ofOwner(owner), _id: { $lt: page.cursor } } : ofOwner(owner);
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
): Promise<Trick | 'not-found' | 'trickipedia-not-found'> {
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
  return readStored(updated) ?? 'not-found';
}

export async function deleteTrick(store: Store, owner: TrickOwner, trickId: ObjectId): Promise<boolean> {
  return (await store.tricks.deleteOne(ownedTrick(owner, trickId))).deletedCount === 1;
}

/** One more attempt, and a `todo` trick becomes `learning`, in one atomic write (an update pipeline). */
export async function logAttempt(store: Store, owner: TrickOwner, trickId: ObjectId): Promise<Trick | null> {
  const stored = await store.tricks.findOneAndUpdate(
    ownedTrick(owner, trickId),
    [
      {
        $set: {
          attempts: { $add: [storedNumber('$attempts'), 1] },
          status: { $cond: [{ $eq: ['$status', 'todo'] }, 'learning', '$status'] },
          updatedAt: new Date(),
        },
      },
    ],
    { returnDocument: 'after' },
  );
  const trick = readStored(stored);
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
export async function landTrick(store: Store, owner: TrickOwner, trickId: ObjectId): Promise<Trick | null> {
  const now = new Date();
  const landed = readStored(
    await store.tricks.findOneAndUpdate(
      { ...ownedTrick(owner, trickId), status: { $ne: 'landed' } },
      { $set: { status: 'landed', completed: true, landedAt: now, updatedAt: now } },
      { returnDocument: 'after' },
    ),
  );
  if (landed) await recordServerEvent(store, owner.userId, 'trick_landed', trickEvent(landed));
  return landed ?? readStored(await store.tricks.findOne(ownedTrick(owner, trickId)));
}

/** Trick counts of a page of lists, in one aggregation over the `{listId, _id}` index; keyed by list id hex. */
export async function countTricksPerList(
  store: Store,
  userId: ObjectId,
  listIds: ObjectId[],
): Promise<Map<string, number>> {
  const rows = await store.tricks
    .aggregate<{ _id: unknown; count: number }>([
      { $match: { listId: { $in: listIds.flatMap(idForms) }, userId: { $in: idForms(userId) } } },
      { $group: { _id: '$listId', count: { $sum: 1 } } },
    ])
    .toArray();
  // A list's tricks stored with its id in both forms group apart: their counts add up.
  const counts = new Map<string, number>();
  for (const row of rows) {
    const listId = readId(row._id)?.toHexString();
    if (listId) counts.set(listId, (counts.get(listId) ?? 0) + row.count);
  }
  return counts;
}

export function countTricks(store: Store, owner: TrickOwner): Promise<number> {
  return store.tricks.countDocuments(ofOwner(owner));
}

/** A deleted list's tricks; scoped by owner, so sweeping after the list is gone is safe to repeat. */
export async function deleteTricksOfList(store: Store, owner: TrickOwner): Promise<number> {
  return (await store.tricks.deleteMany(ofOwner(owner))).deletedCount;
}

/** A list's longest-outstanding unfinished trick, the one a reminder names (the interface spec's reminders part). */
export type OutstandingTrick = Pick<Trick, '_id' | 'listId' | 'name'>;

/** A trick a reminder row names, with whether it is complete (landed). */
export type NamedTrick = Pick<Trick, '_id' | 'listId' | 'name' | 'completed'>;

/** The tricks of these ids that still exist, by id, in one query. */
export async function findTricksByIds(store: Store, ids: ObjectId[]): Promise<Map<string, NamedTrick>> {
  if (!ids.length) return new Map();
  const rows = await store.tricks
    .find({ _id: { $in: ids.flatMap(idForms) } } as Document, {
      projection: { listId: 1, name: 1, status: 1, completed: 1 },
    })
    .toArray();
  return new Map(readEach('tricks', rows, readTrick).map((trick) => [trick._id.toHexString(), trick]));
}

/** The longest-outstanding unfinished trick of each list (oldest first by creation), in one aggregation. */
export async function longestOutstandingTricks(
  store: Store,
  listIds: ObjectId[],
): Promise<Map<string, OutstandingTrick>> {
  const rows = await store.tricks
    .aggregate<{ _id: unknown; trickId: unknown; name: unknown }>([
      { $match: { listId: { $in: listIds.flatMap(idForms) }, completed: { $nin: [true, 'true'] } } },
      { $sort: { listId: 1, createdAt: 1, _id: 1 } },
      { $group: { _id: '$listId', trickId: { $first: '$_id' }, name: { $first: '$name' } } },
    ])
    .toArray();
  const outstanding = new Map<string, OutstandingTrick>();
  for (const row of rows) {
    const listId = readId(row._id);
    const trickId = readId(row.trickId);
    // A list with tricks under both id forms keeps the first group read: either is a trick still to practise.
    if (listId && trickId && !outstanding.has(listId.toHexString()))
      outstanding.set(listId.toHexString(), { _id: trickId, listId, name: readString(row.name) ?? '' });
  }
  return outstanding;
}
