import { type AnyBulkWriteOperation, type Filter, MongoBulkWriteError, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc, TrickListDoc } from '../documents';
import { DEFAULT_REMINDER_CADENCE } from '../tricklists/schema';
import { findListsForReminders } from '../tricklists/service';
import { findTricksByIds, longestOutstandingTricks, type OutstandingTrick } from '../tricks/service';
import { reminderKey } from './idempotency-key';
import { planSlots } from './plan';
import { reminderTrick } from './reminder-trick';
import { riderClock } from './rider-clock';

// Every query on scheduledNotifications outside the reminder run (worker/riding/reminders/claims.ts holds the run's).

/** Marks a row cancelled by re-planning, so planning the same slot again revives it instead of leaving it off. */
const REPLANNED = 'replanned';

type Planned = Pick<TrickListDoc, '_id' | 'userId' | 'reminderCadence'>;

/**
 * Plans a list's reminders for the planning horizon: one upsert per slot keyed by the idempotency key
 * (`$setOnInsert`, unique index), so planning twice creates nothing new; pending rows outside the new plan
 * are cancelled. Returns the planned instants.
 */
export async function replanList(store: Store, list: Planned, now = new Date()): Promise<Date[]> {
  const cadence = list.reminderCadence ?? DEFAULT_REMINDER_CADENCE;
  const slots = planSlots(cadence, await riderClock(store, list.userId), now);
  const trick = slots.length ? (await longestOutstandingTricks(store, [list._id])).get(list._id.toHexString()) : null;
  const rows = slots.map((scheduledFor) => newRow(list, trick?._id ?? null, scheduledFor, now));
  const keys = rows.map((row) => row.idempotencyKey);
  if (rows.length) {
    await bulkWriteIgnoringDuplicates(
      store,
      rows.map((row) => ({
        updateOne: { filter: { idempotencyKey: row.idempotencyKey }, update: { $setOnInsert: row }, upsert: true },
      })),
    );
    await reviveReplanned(store, keys, now);
  }
  await store.scheduledNotifications.updateMany(
    { userId: list.userId, listId: list._id, status: 'pending', idempotencyKey: { $nin: keys } },
    { $set: { status: 'cancelled', outcomeReason: REPLANNED, updatedAt: now } },
  );
  // A landing meanwhile may have moved these rows onto the next trick just before the line above cancelled them.
  if (trick && !(await outstandingTrickOf(store, list._id))?._id.equals(trick._id)) return replanList(store, list, now);
  return slots;
}

const outstandingTrickOf = async (store: Store, listId: ObjectId) =>
  (await longestOutstandingTricks(store, [listId])).get(listId.toHexString());

/** Not held by a live reminder run: that run settles the row itself (worker/platform/db/claimed-batches.ts). */
const notHeld = (now: Date): Filter<ScheduledNotificationDoc> => ({
  $or: [{ leaseId: null }, { leaseUntil: { $lte: now } }],
});

/**
 * A trick left the list's outstanding ones (landed or deleted): its pending reminders move onto the list's
 * longest-outstanding trick (none: `trickId` null), keeping their slots, so the rider keeps being reminded.
 */
export async function moveRemindersOffTrick(
  store: Store,
  list: { userId: ObjectId; listId: ObjectId },
  trickId: ObjectId,
  now = new Date(),
): Promise<void> {
  let from: ObjectId | null = trickId;
  let to = (await outstandingTrickOf(store, list.listId))?._id ?? null;
  for (;;) {
    await moveRows(store, list, from, to, now);
    // Landed meanwhile, its landing may have looked for its rows before these arrived: move them on.
    const after = (await outstandingTrickOf(store, list.listId))?._id ?? null;
    if (after === to || (after && to && after.equals(to))) return;
    [from, to] = [to, after];
  }
}

/**
 * Rewrites each pending row naming `from` to name `to`, with the key that trick and slot hash to, each in one
 * conditional write. A slot already holding a row of that key keeps that one (revived if re-planning had
 * cancelled it) and the old row is cancelled.
 */
async function moveRows(
  store: Store,
  list: { userId: ObjectId; listId: ObjectId },
  from: ObjectId | null,
  to: ObjectId | null,
  now: Date,
) {
  const naming = {
    userId: list.userId,
    listId: list.listId,
    trickId: from,
    status: 'pending' as const,
    ...notHeld(now),
  };
  const rows = await store.scheduledNotifications.find(naming, { projection: { _id: 1, scheduledFor: 1 } }).toArray();
  if (!rows.length) return;
  const keys = rows.map((row) => reminderKey(list.userId, list.listId, to, row.scheduledFor));
  const taken = await bulkWriteIgnoringDuplicates(
    store,
    rows.map((row, index) => ({
      updateOne: {
        filter: { ...naming, _id: row._id },
        update: { $set: { trickId: to, idempotencyKey: keys[index]!, updatedAt: now } },
      },
    })),
  );
  if (!taken.length) return;
  await store.scheduledNotifications.updateMany(
    { ...naming, _id: { $in: taken.map((index) => rows[index]!._id) } },
    { $set: { status: 'cancelled', outcomeReason: REPLANNED, updatedAt: now } },
  );
  await reviveReplanned(
    store,
    taken.map((index) => keys[index]!),
    now,
  );
}

/** Makes rows of these keys that re-planning had cancelled pending again. */
async function reviveReplanned(store: Store, keys: string[], now: Date) {
  await store.scheduledNotifications.updateMany(
    { idempotencyKey: { $in: keys }, status: 'cancelled', outcomeReason: REPLANNED },
    { $set: { status: 'pending', updatedAt: now }, $unset: { outcomeReason: '' } },
  );
}

function newRow(list: Planned, trickId: ObjectId | null, scheduledFor: Date, now: Date): ScheduledNotificationDoc {
  return {
    _id: new ObjectId(),
    userId: list.userId,
    listId: list._id,
    trickId,
    category: 'reminder',
    scheduledFor,
    status: 'pending',
    idempotencyKey: reminderKey(list.userId, list._id, trickId, scheduledFor),
    attemptCount: 0,
    lastAttemptAt: null,
    leaseId: null,
    leaseUntil: new Date(0),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Writes unordered; answers the indexes of the operations refused by the unique key (two plannings of one slot
 * at once: one insert wins, the other's row already exists), and rethrows any other error.
 */
async function bulkWriteIgnoringDuplicates(
  store: Store,
  operations: AnyBulkWriteOperation<ScheduledNotificationDoc>[],
): Promise<number[]> {
  try {
    await store.scheduledNotifications.bulkWrite(operations, { ordered: false });
    return [];
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (!errors.every((e) => e.code === 11000)) throw error;
    return errors.map((e) => e.index);
  }
}

/** Cancels every pending reminder of lists whose cadence went off (auto-pause), in one write. */
export async function cancelPendingOfLists(store: Store, listIds: ObjectId[], reason: string, now: Date) {
  if (!listIds.length) return;
  await store.scheduledNotifications.updateMany(
    { listId: { $in: listIds }, status: 'pending' },
    { $set: { status: 'cancelled', outcomeReason: reason, updatedAt: now } },
  );
}

export interface LocalReminder {
  row: ScheduledNotificationDoc;
  listName: string;
  trick: OutstandingTrick;
}

/**
 * The rider's pending reminders due within `days`, soonest first, each with the trick it would name now;
 * rows of lists with nothing left to practise are left out (the run would cancel them).
 */
export async function findLocalReminders(store: Store, userId: ObjectId, days: number, now = new Date()) {
  const rows = await store.scheduledNotifications
    .find({ userId, status: 'pending', scheduledFor: { $gt: now, $lte: new Date(now.getTime() + days * 86_400_000) } })
    .sort({ scheduledFor: 1, _id: 1 })
    .limit(LIMITS.reminders.localSchedulingRowsMax)
    .toArray();
  const listIds = [...new Map(rows.map((row) => [row.listId.toHexString(), row.listId])).values()];
  const trickIds = [
    ...new Map(rows.flatMap((row) => (row.trickId ? [[row.trickId.toHexString(), row.trickId]] : []))).values(),
  ];
  const [lists, named, outstanding] = await Promise.all([
    findListsForReminders(store, listIds),
    findTricksByIds(store, trickIds),
    longestOutstandingTricks(store, listIds),
  ]);
  // The rows are the rider's own, so are the lists they were planned for; names and cadences as the reader reads them.
  const names = new Map(lists.filter((l) => l.reminderCadence !== 'off').map((l) => [l._id.toHexString(), l.name]));
  return rows.flatMap((row): LocalReminder[] => {
    const listName = names.get(row.listId.toHexString());
    const trick = reminderTrick(
      row,
      row.trickId ? named.get(row.trickId.toHexString()) : undefined,
      outstanding.get(row.listId.toHexString()),
    );
    return listName !== undefined && trick ? [{ row, listName, trick }] : [];
  });
}

/**
 * A client confirming it showed a reminder it scheduled locally: pending → sent in one conditional write.
 * A row already sent answers as it stands (a retried confirmation); a cancelled or failed one cannot be sent.
 */
export async function confirmLocalDelivery(
  store: Store,
  userId: ObjectId,
  id: ObjectId,
  now = new Date(),
): Promise<ScheduledNotificationDoc | 'not-found' | 'not-pending'> {
  const sent = await store.scheduledNotifications.findOneAndUpdate(
    { _id: id, userId, status: 'pending' },
    { $set: { status: 'sent', sentAt: now, sentVia: 'local', updatedAt: now } },
    { returnDocument: 'after' },
  );
  if (sent) return sent;
  const row = await store.scheduledNotifications.findOne({ _id: id, userId });
  if (!row) return 'not-found';
  return row.status === 'sent' ? row : 'not-pending';
}
