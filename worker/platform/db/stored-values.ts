import { ObjectId } from 'mongodb';
import { logEvent } from '../ops/log-line';

/**
 * Tolerant readers of stored values. The database was written for years without a schema, so every stored value
 * may be missing, null, empty or of another type than the one the service writes today: a date as an ISO string,
 * a locale string or epoch milliseconds; an id as a 24-hex string; a number as a string, an Int64 or a Decimal128.
 * A domain's reader (beside its `documents.ts`) turns a stored document into what its views use through these, so
 * no view ever calls a method on a value it did not read here. Each answers `undefined` for what it cannot use,
 * and the caller chooses the documented default.
 */

const HEX_ID = /^[0-9a-f]{24}$/i;
/** Epoch values below this are seconds, above it milliseconds: 1e11 ms is 1973, 1e11 s is the year 5138. */
const EPOCH_SECONDS_BELOW = 1e11;
/** Dates outside 1970..9999 are garbage (a counter stored where a date belongs), not a time a rider could mean. */
const LATEST_DATE_MS = 253_402_300_799_999;

/** The BSON numeric wrappers (Long, Int32, Double, Decimal128) all name their type; read by tag, not by class. */
function bsonNumber(value: object): number | undefined {
  const type = (value as { _bsontype?: unknown })._bsontype;
  if (type === 'Long' || type === 'Int32' || type === 'Double')
    return Number((value as { valueOf(): unknown }).valueOf());
  if (type === 'Decimal128') return Number(String(value));
  return undefined;
}

/** A finite number from a number, a numeric string (`"12"`, `" 4.5 "`) or a BSON numeric wrapper. */
export function readNumber(value: unknown): number | undefined {
  let number: number | undefined;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && value.trim() !== '') number = Number(value.trim());
  else if (typeof value === 'bigint') number = Number(value);
  else if (value !== null && typeof value === 'object') number = bsonNumber(value);
  return number !== undefined && Number.isFinite(number) ? number : undefined;
}

/** A whole number not below `min` (counts, positions, ratings); fractions are floored. */
export function readCount(value: unknown, min = 0): number | undefined {
  const number = readNumber(value);
  return number === undefined ? undefined : Math.max(min, Math.floor(number));
}

/** A date from a Date, an ISO or locale string, or epoch seconds or milliseconds (as a number or a numeric string). */
export function readDate(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (value instanceof Date) date = new Date(value.getTime());
  else if (typeof value === 'string' && value.trim() !== '') {
    const epoch = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : undefined;
    date = epoch !== undefined ? fromEpoch(epoch) : new Date(value.trim());
  } else {
    const epoch = typeof value === 'object' && value !== null ? bsonNumber(value) : undefined;
    if (typeof value === 'number') date = fromEpoch(value);
    else if (epoch !== undefined) date = fromEpoch(epoch);
  }
  if (!date) return undefined;
  const time = date.getTime();
  return Number.isFinite(time) && time >= 0 && time <= LATEST_DATE_MS ? date : undefined;
}

function fromEpoch(epoch: number): Date {
  return new Date(Math.abs(epoch) < EPOCH_SECONDS_BELOW ? epoch * 1000 : epoch);
}

/** An ObjectId from an ObjectId or its 24-hex string (any case); anything else names no document. */
export function readId(value: unknown): ObjectId | undefined {
  if (value instanceof ObjectId) return value;
  if (typeof value === 'string')
    return HEX_ID.test(value) ? ObjectId.createFromHexString(value.toLowerCase()) : undefined;
  // An ObjectId of another copy of bson (crossing a boundary) still names itself.
  if (value !== null && typeof value === 'object' && (value as { _bsontype?: unknown })._bsontype === 'ObjectId') {
    const hex = String((value as { toHexString?: () => unknown }).toHexString?.() ?? '');
    return HEX_ID.test(hex) ? ObjectId.createFromHexString(hex) : undefined;
  }
  return undefined;
}

/** Every id of a stored list of ids that reads as one; a single id stored where a list belongs reads as a list of one. */
export function readIds(value: unknown): ObjectId[] {
  return readArray(value).flatMap((item) => readId(item) ?? []);
}

/**
 * Both forms an id may be stored in, for a query that must match documents written by older code too
 * (`{ userId: { $in: idForms(id) } }`): one index serves the `$in` of the two.
 */
export function idForms(id: ObjectId): [ObjectId, string] {
  return [id, id.toHexString()];
}

/** Whether a stored id (ObjectId or hex string) names `id`. */
export function sameId(stored: unknown, id: ObjectId): boolean {
  return readId(stored)?.equals(id) ?? false;
}

/**
 * A string, trimmed of nothing, cut to `maxLength`; numbers and booleans stored where text belongs read as their
 * text. An empty string reads as absent unless `keepEmpty`.
 */
export function readString(
  value: unknown,
  maxLength = Number.POSITIVE_INFINITY,
  keepEmpty = false,
): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'boolean') text = String(value);
  if (text === undefined || (text === '' && !keepEmpty)) return undefined;
  return text.length > maxLength ? text.slice(0, maxLength) : text;
}

/** A list: an array as stored; one value stored where a list belongs reads as a list of it; nothing reads as empty. */
export function readArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null || value === '') return [];
  // An object whose keys are 0, 1, 2… is an array a serialiser turned into an object.
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((key, index) => key === String(index))) return Object.values(value);
    if (keys.length === 0) return [];
  }
  return [value];
}

/** Every text of a stored list of texts (a single text reads as a list of one, other values are dropped). */
export function readStrings(value: unknown, maxLength?: number): string[] {
  return readArray(value).flatMap((item) => readString(item, maxLength) ?? []);
}

/** A plain object (not an array, a date, an id or a BSON value). */
export function readRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return false;
  return (value as { _bsontype?: unknown })._bsontype === undefined;
}

/** A boolean from a boolean, `"true"`/`"false"`, or 1/0. */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  return undefined;
}

/** One of a closed set of texts (an enum), or undefined. */
export function readOneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/**
 * A document's creation time: its `createdAt` when readable, else its id's timestamp (every ObjectId carries one),
 * else the epoch for a document with a string `_id` and no date: listed last, never an error.
 */
export function createdAtOf(doc: { _id?: unknown; createdAt?: unknown }): Date {
  return readDate(doc.createdAt) ?? readId(doc._id)?.getTimestamp() ?? new Date(0);
}

/** A document's last change: its `updatedAt`, else its creation time. */
export function updatedAtOf(doc: { _id?: unknown; createdAt?: unknown; updatedAt?: unknown }): Date {
  return readDate(doc.updatedAt) ?? createdAtOf(doc);
}

/** The text of a stored `_id` for a log line, whatever its type. */
function idText(id: unknown): string {
  const objectId = readId(id);
  if (objectId) return objectId.toHexString();
  return typeof id === 'string' || typeof id === 'number' ? String(id).slice(0, 64) : typeof id;
}

/**
 * Reads each document of a list with `read`; one that cannot be read at all (its reader throws or answers
 * undefined) is left out with an event line naming its collection and id, never its content, so one bad
 * document never takes a whole list down. The caller's cursor keeps moving on the documents as fetched.
 */
export function readEach<D, V>(collection: string, docs: readonly D[], read: (doc: D) => V | undefined): V[] {
  const read_: V[] = [];
  for (const doc of docs) {
    let value: V | undefined;
    try {
      value = read(doc);
    } catch (err) {
      value = undefined;
      logUnreadable(collection, doc, err);
      continue;
    }
    if (value === undefined) logUnreadable(collection, doc);
    else read_.push(value);
  }
  return read_;
}

/** Reads one document, or undefined (with the same event line) when it cannot be read at all. */
export function readOne<D, V>(
  collection: string,
  doc: D | null | undefined,
  read: (doc: D) => V | undefined,
): V | undefined {
  return doc === null || doc === undefined ? undefined : readEach(collection, [doc], read)[0];
}

function logUnreadable(collection: string, doc: unknown, err?: unknown): void {
  const id = doc !== null && typeof doc === 'object' ? (doc as { _id?: unknown })._id : undefined;
  logEvent('store.document.unreadable', {
    collection,
    id: idText(id),
    reason: err instanceof Error ? err.name : 'unusable',
  });
}
