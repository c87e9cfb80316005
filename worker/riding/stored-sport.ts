import { readOneOf } from '../platform/db/stored-values';
import { SPORTS } from '../platform/sports';

type Sport = (typeof SPORTS)[number];

/** What a riding document stored without a sport of the taxonomy shows: the app's first sport (migrations-notes/legacy-documents-riding.md). */
export const SPORT_WHEN_UNKNOWN: Sport = 'skateboarding';

/** A stored sport of the taxonomy in any case (`"BMX"`), else undefined. */
export const readSport = (value: unknown): Sport | undefined =>
  readOneOf(typeof value === 'string' ? value.trim().toLowerCase() : value, SPORTS);
