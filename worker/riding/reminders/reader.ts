import type { ObjectId } from 'mongodb';
import { readDate, readId, readRecord, readString } from '../../platform/db/stored-values';

/** What the reminder run needs of a claimed row: the ids and the slot, each readable. */
export interface ReminderRow {
  _id: ObjectId;
  userId: ObjectId;
  listId: ObjectId;
  trickId: ObjectId | null;
  scheduledFor: Date;
  idempotencyKey: string;
}

/** Reads a claimed row; undefined (the run skips and counts it) when any id, the slot or the key is unusable. */
export function readReminderRow(stored: unknown): ReminderRow | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  const userId = readId(doc?.userId);
  const listId = readId(doc?.listId);
  const scheduledFor = readDate(doc?.scheduledFor);
  const idempotencyKey = readString(doc?.idempotencyKey);
  if (!doc || !_id || !userId || !listId || !scheduledFor || !idempotencyKey) return undefined;
  return { _id, userId, listId, trickId: readId(doc.trickId) ?? null, scheduledFor, idempotencyKey };
}
