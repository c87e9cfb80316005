import {
  createdAtOf,
  readArray,
  readCount,
  readEach,
  readId,
  readNumber,
  readOneOf,
  readRecord,
  readString,
  readStrings,
  updatedAtOf,
} from '../../platform/db/stored-values';
import { STAY_TYPES, type StayDoc } from '../documents';
import { foldKey } from './normalise';

/**
 * A stored stay as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md): the
 * shape the service writes, each field read into it, an ObjectId `_id` read as its hex.
 */
export type Stay = StayDoc;

const TEXT_FIELDS = ['bookingUrl', 'imageUrl', 'address', 'city', 'state', 'country', 'source', 'notes'] as const;
const NUMBER_FIELDS = ['nightlyPriceMin', 'nightlyPriceMax', 'rating', 'distanceKm', 'sourceConfidence'] as const;
const COUNT_FIELDS = ['priceLevel', 'reviewCount'] as const;

/** A stored stay's id as the service names it: lower-case hex, or the text older code stored. */
export function readStayId(value: unknown): string | undefined {
  return readId(value)?.toHexString() ?? readString(value);
}

/** Reads one stored stay; undefined (unreadable) when it is no object or has no usable id. */
export function readStay(stored: unknown): Stay | undefined {
  const doc = readRecord(stored);
  const _id = readStayId(doc?._id);
  if (!doc || !_id) return undefined;
  const name = readString(doc.name) ?? '';
  const fields: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) fields[field] = readString(doc[field]);
  for (const field of NUMBER_FIELDS) fields[field] = readNumber(doc[field]);
  for (const field of COUNT_FIELDS) fields[field] = readCount(doc[field]);
  if (doc.tags !== undefined && doc.tags !== null) fields.tags = readStrings(doc.tags);
  const createdBy = readId(doc.createdBy);
  return {
    _id,
    name,
    nameKey: readString(doc.nameKey) ?? foldKey(name),
    type: readOneOf(doc.type, STAY_TYPES) ?? 'other',
    ...(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Stay>),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
    ...(createdBy ? { createdBy } : {}),
  };
}

/** Every readable stay of a spot's stored `stays` (one stored where a list belongs reads as a list of one). */
export const readStays = (stored: unknown): Stay[] => readEach('spots.stays', readArray(stored), readStay);
