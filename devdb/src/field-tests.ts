import { Query } from 'mingo';
import type { Options } from 'mingo/types';
import { scalarMembership } from './group-keys.js';
import { type Doc, isPlainObject } from './values.js';

// Tests of one top-level field that a plain comparison answers exactly, so a scan does not run mingo over every
// document: mingo hashes an ObjectId through its string form on each `$in` and equality test, seconds at 100,000.
// A document whose value is of another type (an array, a document, a missing field) still gets mingo's answer.

/** Values whose equality is exactly equality of keyOf (the key of the _id map): no regex, null or document. */
export const hashable = (v: unknown) =>
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  v instanceof Date ||
  isObjectId(v);

const isObjectId = (v: unknown) =>
  typeof v === 'object' && v !== null && (v as { _bsontype?: string })._bsontype === 'ObjectId';

const RANGE = new Set(['$lt', '$lte', '$gt', '$gte']);

/** A range bound as a plain key when it is an ObjectId (hex: the bytes' order) or a Date (its time). */
function rangeKey(v: unknown): string | number | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.getTime();
  return isObjectId(v) ? (v as { toHexString(): string }).toHexString() : undefined;
}

/**
 * Whether `{name: condition}` has a plain test: equality or `$in` on hashable values (strings only without a
 * collation), or a range on ObjectIds or Dates.
 */
export function hasPlainTest(name: string, condition: unknown, collated: boolean): boolean {
  if (name.startsWith('$') || name.includes('.')) return false;
  // A collation may equate strings that differ (composed and decomposed accents): mingo compares those.
  const plain = (v: unknown) => hashable(v) && !(collated && typeof v === 'string');
  if (plain(condition)) return true;
  if (!isPlainObject(condition)) return false;
  const operators = Object.keys(condition);
  if (operators.length === 1 && Array.isArray(condition.$in)) return condition.$in.every(plain);
  if (!operators.length || !operators.every((op) => RANGE.has(op))) return false;
  const bounds = operators.map((op) => condition[op]);
  return bounds.every((b) => b instanceof Date) || bounds.every(isObjectId)
    ? bounds.every((b) => rangeKey(b) !== undefined)
    : false;
}

/** The test of `{name: condition}` for a condition `hasPlainTest` accepts. */
export function plainTest(name: string, condition: unknown, options: Partial<Options>): (doc: Doc) => boolean {
  const exact = new Query({ [name]: condition } as Doc, options);
  if (hashable(condition) || !isPlainObject(condition) || '$in' in condition) {
    const values = hashable(condition) ? [condition] : ((condition as Doc).$in as unknown[]);
    // Equal exactly when keyOf is, without building a key string per document.
    const member = scalarMembership(values);
    return (doc) => {
      const value = doc[name];
      return hashable(value) ? member(value) : exact.test(doc);
    };
  }
  const bounds = Object.entries(condition).map(([op, bound]) => [op, rangeKey(bound)!] as const);
  const sameType = condition[Object.keys(condition)[0]!] instanceof Date ? 'date' : 'objectId';
  return (doc) => {
    const value = doc[name];
    const key =
      sameType === 'date'
        ? value instanceof Date
          ? rangeKey(value)
          : undefined
        : isObjectId(value)
          ? rangeKey(value)
          : undefined;
    if (key === undefined) return exact.test(doc);
    return bounds.every(([op, bound]) =>
      op === '$lt' ? key < bound : op === '$lte' ? key <= bound : op === '$gt' ? key > bound : key >= bound,
    );
  };
}
