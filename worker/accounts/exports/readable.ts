import { ObjectId } from 'mongodb';

// How a stored document reads in a rider's export. Documents were stored for years without a schema, so the
// conversion is generic: it never assumes a field's type and never throws on an odd value.
//   - An ObjectId (or an id stored as its 24-hex string) reads as its lowercase 24-hex string.
//   - A BSON date reads as an ISO 8601 UTC string ("2026-12-07T20:21:38.000Z"); an unusable date as null.
//     Dates older code stored as strings or epoch numbers stay as stored: guessing could misread a count.
//   - Int64/Int32/Double read as JSON numbers (an Int64 beyond 2^53 as its decimal string), Decimal128 as its
//     decimal string, binary data as a base64 string, a regular expression as its source text.
//   - A secret (a password hash, a refresh-token hash, a push address or its keys, an upload's handle) reads as
//     WITHHELD: it is of no use to the rider and in a file it could be stolen from.
//   - Another rider's id, anywhere (a field, a list, a key made of ids), reads as how the section shows other
//     riders: their display name in a conversation, "another rider" elsewhere. An e-mail address that is not the
//     rider's own reads as WITHHELD.
//   - Fields in which another rider wrote about the rider (a report's note) read as WITHHELD.

export const WITHHELD = '[withheld]';
export const ANOTHER_RIDER = 'another rider';

const HEX_ID = /^[0-9a-f]{24}$/i;
const EMBEDDED_ID = /[0-9a-f]{24}/gi;
/** Deeper nesting than any document the service writes: a cut, not a stack overflow, on a pathological one. */
const MAX_DEPTH = 64;

/** Field names holding credentials or handles to them, by their last path segment (case-insensitive). */
const SECRET_FIELD =
  /^(password|passwordHash|tokenHash|previousHash|token|pushToken|refreshToken|accessToken|secret|apiKey|endpoint|keys|p256dh|auth|r2UploadId)$|(Hash|Secret)$/i;
const EMAIL_FIELD = /e-?mail/i;

export interface ReadableContext {
  /** The rider whose export this is: their own id stays an id. */
  riderHex: string;
  /** The rider's own address, the only one shown. */
  riderEmail?: string;
  /** Other riders' ids (lowercase hex) met in this batch, and how each is shown. */
  others: ReadonlyMap<string, string>;
  /** Fields withheld from this document: another rider's words about the rider. */
  withheld?: ReadonlySet<string>;
}

/** A stored document as plain JSON-ready values, by the rules above. */
export function readableDocument(doc: unknown, context: ReadableContext): unknown {
  return readable(doc, context, 0);
}

function readable(value: unknown, context: ReadableContext, depth: number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return readableText(value, context);
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return null;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString() : null;
  if (value instanceof Uint8Array) return toBase64(value);
  if (value instanceof RegExp) return value.source;
  if (depth >= MAX_DEPTH) return null;
  const tagged = bsonValue(value, context);
  if (tagged !== NOT_BSON) return tagged;
  if (Array.isArray(value)) return value.map((item) => readable(item, context, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (depth === 0 && context.withheld?.has(key)) out[key] = WITHHELD;
    else if (SECRET_FIELD.test(key) && field !== null && field !== undefined) out[key] = WITHHELD;
    else if (EMAIL_FIELD.test(key) && typeof field === 'string' && !isRiderEmail(field, context)) out[key] = WITHHELD;
    else out[key] = readable(field, context, depth + 1);
  }
  return out;
}

const NOT_BSON = Symbol('not a BSON value');

/** BSON wrappers read by their tag, not their class: a value of another copy of bson still names its type. */
function bsonValue(value: object, context: ReadableContext): unknown {
  const type = (value as { _bsontype?: unknown })._bsontype;
  if (typeof type !== 'string') return NOT_BSON;
  try {
    switch (type) {
      case 'ObjectId':
      case 'ObjectID':
        return readableText(String((value as ObjectId).toHexString()), context);
      case 'Long': {
        const text = String(value);
        const number = Number(text);
        return Number.isSafeInteger(number) ? number : text;
      }
      case 'Int32':
      case 'Double':
        return Number((value as { valueOf(): unknown }).valueOf());
      case 'Decimal128':
        return String(value);
      case 'Binary':
        return toBase64((value as { buffer: Uint8Array }).buffer);
      case 'Timestamp': {
        const seconds = Number((value as { high?: unknown }).high);
        return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null;
      }
      case 'BSONRegExp':
        return String((value as { pattern?: unknown }).pattern ?? '');
      default:
        return String(value);
    }
  } catch {
    return null;
  }
}

/** A string, with another rider's id in it (the whole string, or part of a key such as `<id>-<id>`) shown as them. */
function readableText(text: string, context: ReadableContext): string {
  if (context.others.size === 0 || text.length < 24) return text;
  if (HEX_ID.test(text)) return context.others.get(text.toLowerCase()) ?? text;
  return text.replace(EMBEDDED_ID, (hex) => context.others.get(hex.toLowerCase()) ?? hex);
}

function isRiderEmail(address: string, context: ReadableContext): boolean {
  return context.riderEmail !== undefined && address.trim().toLowerCase() === context.riderEmail.trim().toLowerCase();
}

/**
 * Every id in a document that could name another rider, as lowercase hex: ObjectIds and ids inside strings, the
 * rider's own left out. The caller asks the accounts which of them are riders.
 */
export function idsIn(doc: unknown, riderHex: string, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > MAX_DEPTH || doc === null || doc === undefined) return into;
  if (typeof doc === 'string') {
    if (doc.length >= 24) for (const hex of doc.match(EMBEDDED_ID) ?? []) addId(into, hex.toLowerCase(), riderHex);
  } else if (typeof doc === 'object') {
    const type = (doc as { _bsontype?: unknown })._bsontype;
    if (type === 'ObjectId' || type === 'ObjectID') {
      addId(into, String((doc as ObjectId).toHexString()).toLowerCase(), riderHex);
    } else if (type === undefined && !(doc instanceof Date) && !(doc instanceof Uint8Array)) {
      for (const value of Array.isArray(doc) ? doc : Object.values(doc)) idsIn(value, riderHex, into, depth + 1);
    }
  }
  return into;
}

function addId(into: Set<string>, hex: string, riderHex: string): void {
  if (hex !== riderHex && HEX_ID.test(hex)) into.add(hex);
}

/** The ids as ObjectIds, for the accounts lookup. */
export const asObjectIds = (hexes: Iterable<string>): ObjectId[] =>
  [...hexes].map((hex) => ObjectId.createFromHexString(hex));

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}
