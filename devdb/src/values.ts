import { BSON, type DeserializeOptions, ObjectId } from 'bson';

export type Doc = Record<string, unknown>;

/**
 * int64 stays a Long (promoteLongs: false) so documents round-trip with their
 * original BSON types; int32/double become JS numbers because mingo can only
 * compute with native numbers.
 */
export const DESERIALIZE_OPTIONS: DeserializeOptions = {
  promoteLongs: false,
  promoteValues: true,
  promoteBuffers: false,
  bsonRegExp: false,
};

export function deserialize(buf: Uint8Array): Doc {
  return BSON.deserialize(buf, DESERIALIZE_OPTIONS) as Doc;
}

export function serialize(doc: Doc): Uint8Array {
  return BSON.serialize(doc);
}

interface BsonValue {
  _bsontype: string;
  toString(radix?: number): string;
}

export function bsonTypeOf(v: object): string | undefined {
  const t = (v as Partial<BsonValue>)._bsontype;
  return typeof t === 'string' ? t : undefined;
}

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A string that is equal for two values exactly when MongoDB considers them
 * equal for index/uniqueness purposes (1, 1.0 and Long(1) collide; "1" does not).
 * Composite parts go through JSON.stringify so no string content can forge
 * a separator and make two different values collide.
 */
export function keyOf(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'n';
    case 'number':
      return Number.isNaN(v) ? 'NaN' : `N${Object.is(v, -0) ? '0' : String(v)}`;
    case 'bigint':
      return `N${v.toString()}`;
    case 'string':
      return `S${v}`;
    case 'boolean':
      return v ? 'T' : 'F';
    case 'object':
      break;
    default:
      return `?${String(v)}`;
  }
  if (v === null) return 'n';
  if (v instanceof Date) return `D${v.getTime()}`;
  if (v instanceof RegExp) return `R${JSON.stringify([v.source, v.flags])}`;
  if (Array.isArray(v)) return `A${JSON.stringify(v.map(keyOf))}`;
  const bsonType = bsonTypeOf(v);
  if (bsonType !== undefined) return keyOfBson(bsonType, v as BsonValue);
  if (ArrayBuffer.isView(v)) return `X0:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')}`;
  return `{${JSON.stringify(Object.entries(v).map(([k, val]) => [k, keyOf(val)]))}`;
}

function keyOfBson(bsonType: string, v: BsonValue): string {
  switch (bsonType) {
    case 'ObjectId':
      return `O${v.toString()}`;
    case 'Long':
    case 'Int32':
    case 'Double':
      return `N${v.toString()}`;
    case 'Decimal128':
      return `M${v.toString()}`;
    case 'Binary': {
      const bin = v as unknown as { sub_type: number; buffer: Uint8Array };
      return `X${bin.sub_type}:${Buffer.from(bin.buffer).toString('base64')}`;
    }
    case 'MinKey':
      return '<';
    case 'MaxKey':
      return '>';
    default:
      return `${bsonType}:${JSON.stringify(BSON.EJSON.serialize(v))}`;
  }
}

/**
 * Deep copy of the plain object/array skeleton. BSON value objects (ObjectId,
 * Long, Binary, ...) are immutable in practice and shared; Dates are copied
 * because update operators are allowed to mutate them.
 */
export function cloneDoc<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(cloneDoc) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const k of Object.keys(v)) out[k] = cloneDoc(v[k]);
  return out as T;
}

/** A document's first field, without listing them all (Object.keys order: plain documents inherit no fields). */
function firstKey(doc: Doc): string | undefined {
  for (const key in doc) return key;
  return undefined;
}

/** MongoDB always stores `_id` as the first field. */
export function withIdFirst(doc: Doc): Doc {
  if (!('_id' in doc)) return { _id: new ObjectId(), ...doc };
  if (firstKey(doc) === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/** Renders a value the way mongod prints it in E11000 messages. */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v !== 'object') return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (Array.isArray(v)) return `[ ${v.map(formatValue).join(', ')} ]`;
  switch (bsonTypeOf(v)) {
    case 'ObjectId':
      return `ObjectId('${v.toString()}')`;
    case 'Long':
      return v.toString();
    case 'Decimal128':
      return `Decimal128('${v.toString()}')`;
    case undefined:
      return formatDoc(v as Doc);
    default:
      return JSON.stringify(BSON.EJSON.serialize(v));
  }
}

export function formatDoc(doc: Doc): string {
  const parts = Object.entries(doc).map(([k, v]) => `${k}: ${formatValue(v)}`);
  return parts.length ? `{ ${parts.join(', ')} }` : '{}';
}
