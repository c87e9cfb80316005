import type { ObjectId } from 'mongodb';
import { createdAtOf, readDate, readId, readRecord, readString } from '../../platform/db/stored-values';

/** A stored landing as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface SpotTrickLanding {
  _id: ObjectId;
  spotId: ObjectId;
  /** Undefined when the stored rider id names no one readable: shown as a deleted rider. */
  userId: ObjectId | undefined;
  trickName: string;
  trickipediaId?: ObjectId;
  /** When it was landed; its recording time when none is stored. */
  landedAt: Date;
  videoUrl?: string;
  createdAt: Date;
}

/** Reads a stored landing; undefined (unreadable) without a usable `_id` or spot id. */
export function readSpotTrickLanding(stored: unknown): SpotTrickLanding | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  const spotId = readId(doc?.spotId);
  if (!doc || !_id || !spotId) return undefined;
  const trickipediaId = readId(doc.trickipediaId);
  const videoUrl = readString(doc.videoUrl);
  const createdAt = createdAtOf(doc);
  return {
    _id,
    spotId,
    userId: readId(doc.userId),
    trickName: readString(doc.trickName) ?? '',
    ...(trickipediaId ? { trickipediaId } : {}),
    landedAt: readDate(doc.landedAt) ?? createdAt,
    ...(videoUrl ? { videoUrl } : {}),
    createdAt,
  };
}
