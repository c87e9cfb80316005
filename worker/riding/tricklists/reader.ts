import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readDate,
  readId,
  readOneOf,
  readRecord,
  readString,
  updatedAtOf,
} from '../../platform/db/stored-values';
import { readSport, SPORT_WHEN_UNKNOWN } from '../stored-sport';
import { DEFAULT_REMINDER_CADENCE, REMINDER_CADENCES, type ReminderCadence } from './schema';

/** A stored trick list as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface TrickList {
  _id: ObjectId;
  /** Undefined only for a list whose owner id names no one readable; every query is scoped by the caller anyway. */
  userId: ObjectId | undefined;
  name: string;
  sport: string;
  reminderCadence: ReminderCadence;
  lastOpenedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Reads a stored trick list; undefined (unreadable) only without a usable `_id`. */
export function readTrickList(stored: unknown): TrickList | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  return {
    _id,
    userId: readId(doc.userId),
    name: readString(doc.name) ?? '',
    sport: readSport(doc.sport) ?? SPORT_WHEN_UNKNOWN,
    reminderCadence: readOneOf(doc.reminderCadence, REMINDER_CADENCES) ?? DEFAULT_REMINDER_CADENCE,
    lastOpenedAt: readDate(doc.lastOpenedAt) ?? null,
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
