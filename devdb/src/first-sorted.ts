import type { SortSpec } from 'mingo/types';
import type { Doc } from './values.js';

type OrderKey = string | number;

/** Bounded selections up to this size keep a sorted buffer; larger ones sort every key. */
const BUFFERED_MAX = 256;

/**
 * A key ordering as BSON orders the value, for the two types a pager sorts on: an ObjectId by its hex string (the
 * bytes' order), a Date by its time. Undefined for any other value, so the caller falls back to mingo.
 */
function orderKey(value: unknown, kind: 'ObjectId' | 'Date'): OrderKey | undefined {
  if (kind === 'Date') return value instanceof Date && !Number.isNaN(value.getTime()) ? value.getTime() : undefined;
  const bson = value as { _bsontype?: string; toHexString?: () => string } | null;
  return typeof bson === 'object' && bson !== null && bson._bsontype === 'ObjectId' ? bson.toHexString!() : undefined;
}

/**
 * Narrows `docs` to those a sort could place among its first `count`, when the sort is on one top-level field
 * holding an ObjectId in every document (or a Date in every one): mingo's sort hashes and groups every document,
 * seconds at 100,000, while these values order by a plain key. Documents tied with the last one kept stay, in their
 * order, so mingo's sort of what is left (stable among equal values) yields exactly the page it would have yielded
 * over all of them. Undefined when the sort has another shape.
 */
export function firstSorted(docs: Doc[], sort: SortSpec, count: number): Doc[] | undefined {
  const fields = Object.keys(sort);
  if (fields.length !== 1 || count <= 0 || docs.length <= count) return undefined;
  const field = fields[0]!;
  if (field.includes('.') || field.startsWith('$')) return undefined;
  const first = docs[0]![field];
  const kind = first instanceof Date ? 'Date' : 'ObjectId';
  const keys: OrderKey[] = new Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const key = orderKey(docs[i]![field], kind);
    if (key === undefined) return undefined;
    keys[i] = key;
  }
  const direction = sort[field] === -1 ? -1 : 1;
  // a comes before b in the sort's order
  const before = (a: OrderKey, b: OrderKey) => (direction === 1 ? a < b : a > b);
  const boundary = lastOfFirst(keys, count, before);
  return docs.filter((_, i) => !before(boundary, keys[i]!));
}

/** The key at position `count` (1-based) of `keys` in the sort's order. */
function lastOfFirst(keys: OrderKey[], count: number, before: (a: OrderKey, b: OrderKey) => boolean): OrderKey {
  if (count > BUFFERED_MAX) {
    return [...keys].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))[count - 1]!;
  }
  // The first `count` keys seen so far, in order; a key goes in only when it beats the last.
  const best: OrderKey[] = [];
  for (const key of keys) {
    if (best.length === count && !before(key, best[count - 1]!)) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (before(key, best[mid]!)) high = mid;
      else low = mid + 1;
    }
    best.splice(low, 0, key);
    if (best.length > count) best.pop();
  }
  return best[count - 1]!;
}
