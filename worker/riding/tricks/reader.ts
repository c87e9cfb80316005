import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readBoolean,
  readCount,
  readDate,
  readId,
  readOneOf,
  readRecord,
  readString,
  updatedAtOf,
} from '../../platform/db/stored-values';
import { TRICK_STATUSES } from './schema';

type TrickStatus = (typeof TRICK_STATUSES)[number];

/** A stored trick as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface Trick {
  _id: ObjectId;
  listId: ObjectId;
  name: string;
  trickipediaId: ObjectId | null;
  status: TrickStatus;
  attempts: number;
  completed: boolean;
  landedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Reads a stored trick; undefined (unreadable) without a usable `_id` or list id. A status outside today's reads
 * as landed when the trick is marked completed, else todo; `completed` stored as text or missing follows the status.
 */
export function readTrick(stored: unknown): Trick | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  const listId = readId(doc?.listId);
  if (!doc || !_id || !listId) return undefined;
  const completedAsStored = readBoolean(doc.completed);
  const status = readOneOf(doc.status, TRICK_STATUSES) ?? (completedAsStored ? 'landed' : 'todo');
  return {
    _id,
    listId,
    name: readString(doc.name) ?? '',
    trickipediaId: readId(doc.trickipediaId) ?? null,
    status,
    attempts: readCount(doc.attempts) ?? 0,
    completed: completedAsStored ?? status === 'landed',
    landedAt: readDate(doc.landedAt) ?? null,
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
