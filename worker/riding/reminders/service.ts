import { type AnyBulkWriteOperation, MongoBulkWriteError, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc, TrickListDoc } from '../documents';
import { DEFAULT_REMINDER_CADENCE } from '../tricklists/schema';
import { longestOutstandingTricks, type OutstandingTrick } from '../tricks/service';
import { reminderKey } from './idempotency-key';
import { planSlots } from './plan';
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
    await upsertIgnoringRaces(
      store,
      rows.map((row) => ({
        updateOne: { filter: { idempotencyKey: row.idempotencyKey }, update: { $setOnInsert: row }, upsert: true },
      })),
    );
    await store.scheduledNotifications.updateMany(
      { idempotencyKey: { $in: keys }, status: 'cancelled', outcomeReason: REPLANNED },
      { $set: { status: 'pending', updatedAt: now }, $unset: { outcomeReason: '' } },
    );
  }
  await store.scheduledNotifications.updateMany(
    { userId: list.userId, listId: list._id, status: 'pending', idempotencyKey: { $nin: keys } },
    { $set: { status: 'cancelled', outcomeReason: REPLANNED, updatedAt: now } },
  );
  return slots;
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

/** Two plannings of one slot at once: the unique index lets one insert win; the other's row already exists. */
async function upsertIgnoringRaces(store: Store, operations: AnyBulkWriteOperation<ScheduledNotificationDoc>[]) {
  try {
    await store.scheduledNotifications.bulkWrite(operations, { ordered: false });
  } catch (error) {
    const duplicatesOnly =
      error instanceof MongoBulkWriteError &&
      (Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]).every((e) => e.code === 11000);
    if (!duplicatesOnly) throw error;
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
  const [lists, tricks] = await Promise.all([
    store.tricklists.find({ _id: { $in: listIds }, userId }, { projection: { name: 1, reminderCadence: 1 } }).toArray(),
    longestOutstandingTricks(store, listIds),
  ]);
  const names = new Map(lists.filter((l) => l.reminderCadence !== 'off').map((l) => [l._id.toHexString(), l.name]));
  return rows.flatMap((row): LocalReminder[] => {
    const listName = names.get(row.listId.toHexString());
    const trick = tricks.get(row.listId.toHexString());
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
