import type { ObjectId } from 'mongodb';
import { createdAtOf, readCount, readId, readRecord, readString, updatedAtOf } from '../../platform/db/stored-values';
import type { SPORTS } from '../../platform/sports';
import { readSport } from '../stored-sport';

/** A stored category as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface Category {
  _id: ObjectId;
  name: string;
  slug: string;
  /** Left out when none of the taxonomy is stored. */
  sport?: (typeof SPORTS)[number];
  entryCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Reads a stored category; undefined (unreadable) only without a usable `_id`. */
export function readCategory(stored: unknown): Category | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  const slug = readString(doc.slug) ?? _id.toHexString();
  const sport = readSport(doc.sport);
  return {
    _id,
    name: readString(doc.name) ?? slug,
    slug,
    ...(sport ? { sport } : {}),
    entryCount: readCount(doc.entryCount) ?? 0,
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
