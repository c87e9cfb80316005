import { ObjectId } from 'bson';
import { HashMap } from 'mingo/util';
import { isPlainObject } from './values.js';

/**
 * A map from values to entries with mingo's HashMap equality (its `isEqual`: 1 and 1.0 alike, dates by time,
 * ObjectIds by hex, documents field by field), entries kept in first-seen order. Scalars go to a native Map under
 * themselves or a tagged string, so they are never hashed field by field: mingo's HashMap hashes an ObjectId or a
 * compound `_id` through all of its keys on every lookup. Values of other types go to a HashMap; mingo's `isEqual`
 * never equates values of different classes, so each value has exactly one place to be found.
 */
export class KeyedEntries<V> {
  readonly #primitives = new Map<unknown, V>();
  readonly #objectIds = new ObjectIdMap<V>();
  readonly #tagged = new Map<string, V>();
  readonly #others = HashMap.init<unknown, V>();
  readonly #order: [unknown, V][] = [];

  /**
   * @param fixedFields documents given as keys hold the same fields in the same order (the value of an expression
   * `{a: ..., b: ...}`, undefined fields included), so a document of scalars is keyed by a string of its values;
   * `isEqual` ignores field order, which documents of other origins may differ in.
   */
  constructor(readonly fixedFields = false) {}

  // The tag of the key last looked up, reused when that key is added next (a new group).
  #lastKey: unknown;
  #lastTag: string | undefined;

  get(key: unknown): V | undefined {
    if (isNativeKey(key)) return this.#primitives.get(key);
    if (key instanceof ObjectId) return this.#objectIds.get(key);
    const tag = this.#tagOf(key);
    this.#lastKey = key;
    this.#lastTag = tag;
    return tag === undefined ? this.#others.get(key) : this.#tagged.get(tag);
  }

  /** Adds `key` (first-seen order) unless an equal key is there. */
  add(key: unknown, value: V): void {
    this.#order.push([key, value]);
    if (isNativeKey(key)) {
      this.#primitives.set(key, value);
      return;
    }
    if (key instanceof ObjectId) {
      this.#objectIds.set(key, value);
      return;
    }
    const tag = key === this.#lastKey ? this.#lastTag : this.#tagOf(key);
    if (tag === undefined) this.#others.set(key, value);
    else this.#tagged.set(tag, value);
  }

  /** The keys (as first seen) and their entries, in first-seen order. */
  entries(): [unknown, V][] {
    return this.#order;
  }

  #tagOf(key: unknown): string | undefined {
    const scalar = scalarTag(key);
    if (scalar !== undefined || !this.fixedFields || !isPlainObject(key)) return scalar;
    let tag = '{';
    for (const field in key) {
      const part = scalarTag(key[field]);
      if (part === undefined) return undefined;
      tag += part;
    }
    return tag;
  }
}

/** An ObjectId's 12 bytes as 6 UTF-16 units: a short string to key by, cheaper than its hex. */
function objectIdChars(id: ObjectId): string {
  const b = id.id;
  return String.fromCharCode(
    (b[0]! << 8) | b[1]!,
    (b[2]! << 8) | b[3]!,
    (b[4]! << 8) | b[5]!,
    (b[6]! << 8) | b[7]!,
    (b[8]! << 8) | b[9]!,
    (b[10]! << 8) | b[11]!,
  );
}

/** ObjectIds by their bytes as three 32-bit numbers, map in map: no string built to find one. */
class ObjectIdMap<V> {
  readonly #top = new Map<number, Map<number, Map<number, V>>>();

  get(id: ObjectId): V | undefined {
    const b = id.id;
    return this.#top.get(word(b, 0))?.get(word(b, 4))?.get(word(b, 8));
  }

  set(id: ObjectId, value: V): void {
    const b = id.id;
    let middle = this.#top.get(word(b, 0));
    if (!middle) {
      middle = new Map();
      this.#top.set(word(b, 0), middle);
    }
    let last = middle.get(word(b, 4));
    if (!last) {
      last = new Map();
      middle.set(word(b, 4), last);
    }
    last.set(word(b, 8), value);
  }
}

const word = (b: Uint8Array, i: number) => (b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!;

/** Keys a native Map compares as mingo does (SameValueZero: 0 and -0 alike, NaN equal to itself). */
function isNativeKey(key: unknown): boolean {
  return key === null || (typeof key !== 'object' && typeof key !== 'function');
}

/**
 * A prefix-free string per scalar, equal exactly when mingo's `isEqual` holds: a tag, then the value (a string
 * by its length first). An invalid date is undefined: mingo finds two of them unequal.
 */
export function scalarTag(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return `s${v.length}:${v}`;
    case 'number':
      return `n${v === 0 ? 0 : v};`;
    case 'boolean':
      return v ? 't' : 'f';
    case 'undefined':
      return 'u';
    case 'object':
      if (v === null) return 'z';
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : `d${v.getTime()};`;
      if (v instanceof ObjectId) return `o${objectIdChars(v)}`;
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Whether a value equals one of `values` (each null or with a scalarTag) by mingo's `isEqual`: primitives through
 * a native Set (no string built per test), dates and ObjectIds through their tags.
 */
export function scalarMembership(values: unknown[]): (v: unknown) => boolean {
  const natives = new Set<unknown>();
  const tags = new Set<string>();
  for (const x of values) {
    if (isNativeKey(x)) natives.add(x);
    else tags.add(scalarTag(x)!);
  }
  if (tags.size === 0) return (v) => natives.has(v);
  return (v) => (isNativeKey(v) ? natives.has(v) : tags.has(scalarTag(v) ?? ''));
}

/** Whether `v` has a scalarTag, without building it. */
export function isTaggedScalar(v: unknown): boolean {
  const type = typeof v;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'undefined') return true;
  if (v === null || type !== 'object') return v === null;
  if (v instanceof Date) return !Number.isNaN(v.getTime());
  return v instanceof ObjectId;
}
