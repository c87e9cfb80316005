import { type Filter, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { TrickListDoc } from '../documents';
import type { ReminderCadence } from './schema';

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

/**
 * The owner opening a list: `lastOpenedAt` is stamped and an auto-pause mark taken off in the same write
 * that reads the list, so exactly one open learns the reminders were paused (worker/riding/reminders/auto-pause.ts).
 */
export async function openTrickList(
  store: Store,
  userId: ObjectId,
  listId: ObjectId,
): Promise<{ list: TrickListDoc; remindersAutoPaused: boolean } | null> {
  const lastOpenedAt = new Date();
  const before = await store.tricklists.findOneAndUpdate(
    owned(userId, listId),
    { $set: { lastOpenedAt }, $unset: { remindersPausedAt: '' } },
    { returnDocument: 'before' },
  );
  if (!before) return null;
  const { remindersPausedAt, ...list } = before;
  return { list: { ...list, lastOpenedAt }, remindersAutoPaused: remindersPausedAt !== undefined };
}

/** Every list of the rider with its reminder cadence, oldest first. */
export function findReminderCadences(
  store: Store,
  userId: ObjectId,
): Promise<Pick<TrickListDoc, '_id' | 'reminderCadence'>[]> {
  return store.tricklists
    .find({ userId }, { projection: { _id: 1, reminderCadence: 1 } })
    .sort({ _id: 1 })
    .toArray();
}

/** A new cadence chosen by the rider; choosing one also ends an auto-pause. */
export function setReminderCadence(
  store: Store,
  userId: ObjectId,
  listId: ObjectId,
  reminderCadence: ReminderCadence,
): Promise<TrickListDoc | null> {
  return store.tricklists.findOneAndUpdate(
    owned(userId, listId),
    { $set: { reminderCadence, updatedAt: new Date() }, $unset: { remindersPausedAt: '' } },
    { returnDocument: 'after' },
  );
}

/** Name and cadence of the lists a batch of reminders is for, in one query. */
export function findListsForReminders(
  store: Store,
  listIds: ObjectId[],
): Promise<Pick<TrickListDoc, '_id' | 'name' | 'reminderCadence'>[]> {
  return store.tricklists
    .find({ _id: { $in: listIds } }, { projection: { _id: 1, name: 1, reminderCadence: 1 } })
    .toArray();
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
  // A cadence chosen here ends an auto-pause as PUT /api/users/me/reminder-cadence/:listId does.
  const unpause = changes.reminderCadence ? { $unset: { remindersPausedAt: '' as const } } : {};
  return store.tricklists.findOneAndUpdate(
    owned(userId, listId),
    { $set: { ...changes, updatedAt: new Date() }, ...unpause },
    { returnDocument: 'after' },
  );
}

/** Removes the list itself; its tricks go through worker/riding/tricks/service.ts. */
export async function deleteTrickList(store: Store, userId: ObjectId, listId: ObjectId): Promise<boolean> {
  return (await store.tricklists.deleteOne(owned(userId, listId))).deletedCount === 1;
}

/**
 * The 60-day auto-pause: every list with reminders on and no open (or, never opened, no creation) since
 * `cutoff` gets cadence off and a pause mark of this run's time, which then finds exactly the lists it paused.
 */
export async function pauseListsNotOpenedSince(store: Store, cutoff: Date, now: Date): Promise<ObjectId[]> {
  const result = await store.tricklists.updateMany(
    {
      reminderCadence: { $ne: 'off' },
      $or: [{ lastOpenedAt: { $lt: cutoff } }, { lastOpenedAt: { $exists: false }, createdAt: { $lt: cutoff } }],
    },
    { $set: { reminderCadence: 'off', remindersPausedAt: now, updatedAt: now } },
  );
  if (!result.modifiedCount) return [];
  const paused = await store.tricklists.find({ remindersPausedAt: now }, { projection: { _id: 1 } }).toArray();
  return paused.map((list) => list._id);
}
