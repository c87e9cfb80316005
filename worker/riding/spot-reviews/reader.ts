import type { ObjectId } from 'mongodb';
import { createdAtOf, readCount, readId, readRecord, readString, updatedAtOf } from '../../platform/db/stored-values';

/** A stored spot review as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface SpotReview {
  _id: ObjectId;
  spotId: ObjectId;
  /** Undefined when the stored author id names no one readable: shown as a deleted rider. */
  userId: ObjectId | undefined;
  /** A whole number of stars; 0 when none is stored. */
  rating: number;
  text?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Reads a stored review; undefined (unreadable) without a usable `_id` or spot id. */
export function readSpotReview(stored: unknown): SpotReview | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  const spotId = readId(doc?.spotId);
  if (!doc || !_id || !spotId) return undefined;
  const text = readString(doc.text);
  return {
    _id,
    spotId,
    userId: readId(doc.userId),
    rating: readCount(doc.rating) ?? 0,
    ...(text ? { text } : {}),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
