import { type Db, ObjectId } from 'mongodb';
import { reminderKey } from '../worker/riding/reminders/idempotency-key.js';

const CHUNK = 5_000;

/** insertMany in chunks: a bench seeds tens of thousands of rows, more than one request should carry. */
export async function insertInChunks(db: Db, name: string, docs: object[]): Promise<void> {
  for (let i = 0; i < docs.length; i += CHUNK) await db.collection(name).insertMany(docs.slice(i, i + CHUNK));
}

/**
 * One trick list per owner (a daily cadence, opened now), one trick on it, and one reminder due a minute ago:
 * what the five-minute reminder run (worker/riding/reminders/run.ts) claims and sends. Shared by the reminder benches.
 */
export async function seedDueReminders(db: Db, owners: ObjectId[], now: Date): Promise<void> {
  const lists = owners.map((userId, i) => ({
    _id: new ObjectId(),
    userId,
    name: `Bench list ${i}`,
    sport: 'skateboarding',
    reminderCadence: 'daily',
    lastOpenedAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  await insertInChunks(db, 'tricklists', lists);
  const tricks = lists.map((list) => ({
    _id: new ObjectId(),
    userId: list.userId,
    listId: list._id,
    name: 'Kickflip',
    status: 'learning',
    attempts: 3,
    completed: false,
    landedAt: null,
    createdAt: now,
    updatedAt: now,
  }));
  await insertInChunks(db, 'tricks', tricks);
  const scheduledFor = new Date(now.getTime() - 60_000);
  await insertInChunks(
    db,
    'scheduledNotifications',
    lists.map((list, i) => ({
      userId: list.userId,
      listId: list._id,
      trickId: tricks[i]!._id,
      category: 'reminder',
      scheduledFor,
      status: 'pending',
      idempotencyKey: reminderKey(list.userId, list._id, tricks[i]!._id, scheduledFor),
      attemptCount: 0,
      lastAttemptAt: null,
      leaseId: null,
      leaseUntil: new Date(0),
      createdAt: now,
      updatedAt: now,
    })),
  );
}
