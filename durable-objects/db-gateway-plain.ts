import { ObjectId } from 'mongodb';

// Most values the services send and read hold only strings, numbers, booleans, null, dates, ObjectIds, arrays and
// plain objects. Those cross Durable Object RPC by structured clone (native), an ObjectId as {$oid: hex}, instead of
// being BSON encoded and decoded in JavaScript on both sides; anything else goes as BSON (db-gateway-codec.ts).

/** What `plainCopy` answers when a value holds a type structured clone would not keep. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

/** The marker an ObjectId travels as; a value whose own object has this key is never sent plain, so it is unambiguous. */
const OID = '$oid';

/**
 * A copy fit for structured clone, ObjectIds as markers, or NOT_PLAIN. As BSON encoding does: `undefined` becomes
 * null, or its key is left out with `dropUndefined` (the options argument).
 */
export function plainCopy(value: unknown, dropUndefined = false): unknown {
  return copy(value, dropUndefined, 0);
}

function copy(value: unknown, dropUndefined: boolean, depth: number): unknown {
  if (typeof value !== 'object') {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    return value === undefined ? null : NOT_PLAIN;
  }
  if (value === null) return null;
  // Deeper than any stored shape, or circular: the BSON path takes it, and its encoder names a circular one.
  if (depth > 100) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // An own `$oid` would read as a marker; `__proto__` would set the copy's prototype instead of a field;
      // `_bsontype` makes the BSON encoder read the object as one of its types, so it decides as before.
      if (key === OID || key === '__proto__' || key === '_bsontype') return NOT_PLAIN;
      const field = (value as Record<string, unknown>)[key];
      if (field === undefined && dropUndefined) continue;
      const item = copy(field, dropUndefined, depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[key] = item;
    }
    return out;
  }
  if (proto === Array.prototype) {
    const array = value as unknown[];
    const out = new Array(array.length);
    for (let i = 0; i < array.length; i += 1) {
      const item = copy(array[i], dropUndefined, depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  if (proto === Date.prototype) return value;
  if ((value as { _bsontype?: unknown })._bsontype === 'ObjectId') return { [OID]: (value as ObjectId).toHexString() };
  return NOT_PLAIN;
}

/** Turns the markers of a structured-cloned `plainCopy` back into ObjectIds, in place; returns the value. */
export function revivePlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item = value[i];
      if (typeof item === 'object' && item !== null) value[i] = revivePlain(item);
    }
    return value;
  }
  if (value instanceof Date) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === OID) return ObjectId.createFromHexString(record[OID] as string) as T;
  for (const key of keys) {
    const field = record[key];
    if (typeof field === 'object' && field !== null) record[key] = revivePlain(field);
  }
  return value;
}
