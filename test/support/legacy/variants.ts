import { Decimal128, Long, ObjectId } from 'mongodb';

/**
 * The kinds of stored value years of schemaless writes leave in a field, as one table: each variant turns the
 * value a base document holds into what older code stored there instead. A collection's spec names each field's
 * kind, and the generator applies every variant that fits that kind to the field, one document per pair.
 */

/** What a field holds in a document the service writes today. */
export type FieldKind =
  /** A Date. */
  | 'date'
  /** An ObjectId naming another document (an owner, a list, a participant). */
  | 'id'
  /** The document's own `_id`. */
  | 'ownId'
  /** An id the service stores as its 24-hex string (event saves, a stay's `_id`). */
  | 'idString'
  /** A list of ObjectIds. */
  | 'ids'
  /** A number; `count` is a whole one (counters, ratings). */
  | 'number'
  | 'count'
  /** A short text, a long text, or one of a set of words. */
  | 'string'
  | 'text'
  | 'enum'
  /** A list of words or of objects. */
  | 'array'
  | 'object'
  | 'boolean';

/** Returned by a variant to leave the field out of the document. */
export const REMOVE: unique symbol = Symbol('remove the field');

export interface VariantContext {
  /** An id of the same form as `current` that names no stored document. */
  dangling(current: unknown): ObjectId | string;
}

export interface Variant {
  name: string;
  kinds: readonly FieldKind[];
  value(current: unknown, ctx: VariantContext): unknown;
}

/** Kinds that hold one value, not a list or an object. */
const SCALARS: FieldKind[] = ['date', 'id', 'idString', 'number', 'count', 'string', 'text', 'enum', 'boolean'];
const LISTS: FieldKind[] = ['ids', 'array'];
const ALL_BUT_OWN_ID: FieldKind[] = [...SCALARS, ...LISTS, 'object'];

/** Long enough to find a view that echoes a stored text without a bound, short enough to seed quickly. */
export const LONG_STRING_LENGTH = 8_000;

const hexOf = (value: unknown) => (value instanceof ObjectId ? value.toHexString() : value);
const asDate = (value: unknown) => (value instanceof Date ? value : new Date(0));
const asNumber = (value: unknown) => (typeof value === 'number' ? value : 12);
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);

export const VARIANTS: readonly Variant[] = [
  { name: 'missing', kinds: ALL_BUT_OWN_ID, value: () => REMOVE },
  { name: 'null', kinds: ALL_BUT_OWN_ID, value: () => null },
  { name: 'empty string', kinds: ALL_BUT_OWN_ID, value: () => '' },
  // An empty list where one value belongs, and an empty object anywhere: the two shapes older forms posted.
  { name: 'empty array', kinds: [...LISTS, 'date', 'id', 'count'], value: () => [] },
  { name: 'empty object', kinds: ['object', 'date', 'id', 'number', 'string', 'array'], value: () => ({}) },
  { name: 'ISO string', kinds: ['date'], value: (current) => asDate(current).toISOString() },
  {
    name: 'locale string',
    kinds: ['date'],
    value: (current) => asDate(current).toLocaleString('en-US', { timeZone: 'UTC' }),
  },
  { name: 'epoch ms', kinds: ['date'], value: (current) => asDate(current).getTime() },
  { name: 'hex string', kinds: ['id', 'ownId'], value: hexOf },
  {
    name: 'hex strings',
    kinds: ['ids'],
    value: (current) => (Array.isArray(current) ? current.map(hexOf) : current),
  },
  {
    name: 'ObjectId',
    kinds: ['idString'],
    value: (current) =>
      typeof current === 'string' && /^[0-9a-f]{24}$/i.test(current) ? new ObjectId(current) : current,
  },
  { name: 'dangling id', kinds: ['id', 'idString'], value: (current, ctx) => ctx.dangling(current) },
  {
    name: 'dangling ids',
    kinds: ['ids'],
    value: (current, ctx) => (Array.isArray(current) ? [...current, ctx.dangling(current[0])] : current),
  },
  { name: 'numeric string', kinds: ['number', 'count'], value: (current) => String(asNumber(current)) },
  { name: 'Int64', kinds: ['number', 'count'], value: (current) => Long.fromNumber(Math.trunc(asNumber(current))) },
  {
    name: 'Decimal128',
    kinds: ['number', 'count'],
    value: (current) => Decimal128.fromString(String(asNumber(current))),
  },
  { name: 'word for a number', kinds: ['number', 'count', 'date'], value: () => 'twelve' },
  { name: 'number for a string', kinds: ['string', 'text', 'enum', 'id', 'idString'], value: () => 12 },
  { name: 'object for an array', kinds: ['array', 'ids'], value: (current) => ({ 0: firstOf(current) }) },
  {
    name: 'string for an array',
    kinds: ['array', 'ids'],
    value: (current) => String(hexOf(firstOf(current)) ?? 'skateboarding'),
  },
  {
    name: 'null in the array',
    kinds: ['array', 'ids'],
    value: (current) => [...(Array.isArray(current) ? current : []), null],
  },
  { name: 'array for an object', kinds: ['object'], value: (current) => [current] },
  { name: 'array for a string', kinds: ['string', 'text'], value: (current) => [current] },
  { name: 'very long string', kinds: ['string', 'text'], value: () => 'x'.repeat(LONG_STRING_LENGTH) },
  { name: 'string for a boolean', kinds: ['boolean'], value: (current) => String(current) },
];

/** The variants that apply to a field of `kind`, in table order. */
export function variantsFor(kind: FieldKind): Variant[] {
  return VARIANTS.filter((variant) => variant.kinds.includes(kind));
}

/** Fields older code left beside the ones read today: Mongoose's version key and renamed fields. */
export const EXTRA_FIELDS = {
  __v: 3,
  legacyNotes: { migratedFrom: 'v1', flags: ['beta'] },
  oldName: 'kept from an older schema',
};
