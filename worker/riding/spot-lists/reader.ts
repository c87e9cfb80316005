import type { ObjectId } from 'mongodb';
import { createdAtOf, readId, readIds, readRecord, readString, updatedAtOf } from '../../platform/db/stored-values';

/** A stored spot list as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface SpotList {
  _id: ObjectId;
  name: string;
  /** Every stored spot id that reads as one, in order; other values are left out. */
  spotIds: ObjectId[];
  createdAt: Date;
  updatedAt: Date;
}

/** Reads a stored spot list; undefined (unreadable) only without a usable `_id`. */
export function readSpotList(stored: unknown): SpotList | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  return {
    _id,
    name: readString(doc.name) ?? '',
    spotIds: readIds(doc.spotIds),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
