import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readCount,
  readId,
  readRecord,
  readString,
  readStrings,
  updatedAtOf,
} from '../../platform/db/stored-values';
import type { SPORTS } from '../../platform/sports';
import { readSport, SPORT_WHEN_UNKNOWN } from '../stored-sport';

/** A stored trickipedia entry as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface TrickipediaEntry {
  _id: ObjectId;
  name: string;
  slug: string;
  sport: (typeof SPORTS)[number];
  category: string;
  description: string;
  difficulty?: number;
  aliases: string[];
  videoUrl?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Reads a stored entry; undefined (unreadable) only without a usable `_id`. */
export function readTrickipediaEntry(stored: unknown): TrickipediaEntry | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  const slug = readString(doc.slug) ?? _id.toHexString();
  const difficulty = readCount(doc.difficulty);
  const videoUrl = readString(doc.videoUrl);
  return {
    _id,
    name: readString(doc.name) ?? slug,
    slug,
    sport: readSport(doc.sport) ?? SPORT_WHEN_UNKNOWN,
    category: readString(doc.category) ?? '',
    description: readString(doc.description) ?? '',
    ...(difficulty !== undefined ? { difficulty } : {}),
    aliases: readStrings(doc.aliases),
    ...(videoUrl ? { videoUrl } : {}),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
