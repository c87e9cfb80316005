import { type Document, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { idForms, readEach, readOne } from '../../platform/db/stored-values';
import type { TrickListDoc } from '../documents';
import { readTrickList, type TrickList } from './reader';
import type { ReminderCadence } from './schema';

// Every query on trick lists. Each one is scoped by the owner's id, so another rider's list is simply not found.
// Ids match whether older code stored them as ObjectIds or hex strings (filters are Documents: the typed
// Filter<TrickListDoc> knows only the form the service writes).

export type NewTrickList = Pick<TrickListDoc, 'name' | 'sport' | 'reminderCadence'>;
export type TrickListChanges = Partial<NewTrickList>;

/** The rider's lists: the owner id in either stored form. */
export const ownedBy = (userId: ObjectId): Document => ({ userId: { $in: idForms(userId) } });

const owned = (userId: ObjectId, listId: ObjectId): Document => ({
  _id: { $in: idForms(listId) },
  ...ownedBy(userId),
});

const readList = (doc: TrickListDoc | null) => readOne('tricklists', doc, readTrickList) ?? null;

export async function insertTrickList(store: Store, userId: ObjectId, fields: NewTrickList): Promise<TrickList> {
  const now = new Date();
  const list: TrickListDoc = { _id: new ObjectId(), userId, ...fields, createdAt: now, updatedAt: now };
  await store.tricklists.insertOne(list);
  return readTrickList(list)!;
}

/** The caller's lists, newest first, `limit + 1` rows for the pager. */
export function findTrickLists(
  store: Store,
  userId: ObjectId,
  page: { cursor?: ObjectId; limit: number },
): Promise<TrickListDoc[]> {
  const filter: Document = page.cursor ? { ...ownedBy(userId), _id: { $lt: page.cursor } } : ownedBy(userId);
  return store.tricklists
    .find(filter)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export function countTrickLists(store: Store, userId: ObjectId): Promise<number> {
  return store.tricklists.countDocuments(ownedBy(userId));
}

/**
 * The owner opening a list: `lastOpenedAt` is stamped and an auto-pause mark taken off in the same write
 * that reads the list, so exactly one open learns the reminders were paused (worker/riding/reminders/auto-pause.ts).
 */
export async function openTrickList(
  store: Store,
  userId: ObjectId,
  listId: ObjectId,
): Promise<{ list: TrickList; remindersAutoPaused: boolean } | null> {
  const lastOpenedAt = new Date();
  const before = await store.tricklists.findOneAndUpdate(
    owned(userId, listId),
    { $set: { lastOpenedAt }, $unset: { remindersPausedAt: '', autoPauseFrom: '' } },
    { returnDocument: 'before' },
  );
  const list = readList(before);
  if (!before || !list) return null;
  return { list: { ...list, lastOpenedAt }, remindersAutoPaused: before.remindersPausedAt !== undefined };
}

/** Every list of the rider with its reminder cadence, oldest first. */
export async function findReminderCadences(store: Store, userId: ObjectId): Promise<TrickList[]> {
  const rows = await store.tricklists
    .find(ownedBy(userId), { projection: { _id: 1, reminderCadence: 1 } })
    .sort({ _id: 1 })
    .toArray();
  return readEach('tricklists', rows, readTrickList);
}

/** A new cadence chosen by the rider; choosing one also ends an auto-pause. */
export async function setReminderCadence(
  store: Store,
  userId: ObjectId,
  listId: ObjectId,
  reminderCadence: ReminderCadence,
): Promise<TrickList | null> {
  return readList(
    await store.tricklists.findOneAndUpdate(
      owned(userId, listId),
      { $set: { reminderCadence, updatedAt: new Date() }, $unset: { remindersPausedAt: '' } },
      { returnDocument: 'after' },
    ),
  );
}

/** Name and cadence of the lists a batch of reminders is for, in one query. */
export async function findListsForReminders(store: Store, listIds: ObjectId[]): Promise<TrickList[]> {
  const rows = await store.tricklists
    .find({ _id: { $in: listIds.flatMap(idForms) } } as Document, {
      projection: { _id: 1, name: 1, reminderCadence: 1 },
    })
    .toArray();
  return readEach('tricklists', rows, readTrickList);
}

export async function ownsTrickList(store: Store, userId: ObjectId, listId: ObjectId): Promise<boolean> {
  return (await store.tricklists.countDocuments(owned(userId, listId), { limit: 1 })) > 0;
}

export async function updateTrickList(
  store: Store,
  userId: ObjectId,
  listId: ObjectId,
  changes: TrickListChanges,
): Promise<TrickList | null> {
  // A cadence chosen here ends an auto-pause as PUT /api/users/me/reminder-cadence/:listId does.
  const unpause = changes.reminderCadence ? { $unset: { remindersPausedAt: '' as const } } : {};
  return readList(
    await store.tricklists.findOneAndUpdate(
      owned(userId, listId),
      { $set: { ...changes, updatedAt: new Date() }, ...unpause },
      { returnDocument: 'after' },
    ),
  );
}

/** Removes the list itself; its tricks go through worker/riding/tricks/service.ts. */
export async function deleteTrickList(store: Store, userId: ObjectId, listId: ObjectId): Promise<boolean> {
  return (await store.tricklists.deleteOne(owned(userId, listId))).deletedCount === 1;
}

/**
 * The 60-day auto-pause: every list with reminders on and no open since `cutoff` gets cadence off and a pause mark
 * of this run's time, which then finds exactly the lists it paused. A list never opened counts its 60 days from
 * the first run that saw it (`autoPauseFrom`): older code kept no open time, so its lists are not paused at once.
 */
export async function pauseListsNotOpenedSince(store: Store, cutoff: Date, now: Date): Promise<ObjectId[]> {
  const remindersOn: Document = { reminderCadence: { $ne: 'off' } };
  const neverOpened: Document = { lastOpenedAt: null };
  await store.tricklists.updateMany({ ...remindersOn, ...neverOpened, autoPauseFrom: null } as Document, {
    $set: { autoPauseFrom: now },
  });
  const result = await store.tricklists.updateMany(
    {
      ...remindersOn,
      $or: [{ lastOpenedAt: { $lt: cutoff } }, { ...neverOpened, autoPauseFrom: { $lt: cutoff } }],
    } as Document,
    { $set: { reminderCadence: 'off', remindersPausedAt: now, updatedAt: now } },
  );
  if (!result.modifiedCount) return [];
  const paused = await store.tricklists.find({ remindersPausedAt: now }, { projection: { _id: 1 } }).toArray();
  return paused.flatMap((list) => readTrickList(list)?._id ?? []);
}
