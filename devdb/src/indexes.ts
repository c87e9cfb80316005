import { Query } from 'mingo';
import { foldValue, parseCollation } from './collation.js';
import { DevDbError, fail } from './errors.js';
import { geoKeyProblem } from './geo.js';
import { geoValuesAtPath } from './geo-shapes.js';
import { MISSING, valuesAtPath } from './paths.js';
import { type Doc, formatDoc, isPlainObject, keyOf } from './values.js';

export type IndexKey = Record<string, number | string>;

/** The listIndexes shape; anything else the client sent is kept verbatim. */
export interface IndexSpec {
  v: number;
  key: IndexKey;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Doc;
  [option: string]: unknown;
}

export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** Options that change an index's behaviour; two specs differing here conflict. */
const SEMANTIC_OPTIONS = ['unique', 'sparse', 'expireAfterSeconds', 'partialFilterExpression', 'collation'];

function defaultIndexName(key: IndexKey): string {
  return Object.entries(key)
    .map(([f, dir]) => `${f}_${dir}`)
    .join('_');
}

export function normalizeIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) fail('TypeMismatch', 'each index specification must be an object');
  const key = raw.key;
  if (!isPlainObject(key) || Object.keys(key).length === 0) {
    fail('FailedToParse', "The 'key' field is a required property of an index specification");
  }
  for (const [field, dir] of Object.entries(key)) {
    const ok = (typeof dir === 'number' && dir !== 0) || typeof dir === 'string';
    if (!ok) fail('BadValue', `Values in the index key pattern can't be 0 or non-numeric: ${field}`);
  }
  const { v: _v, ns: _ns, key: _key, name: rawName, ...options } = raw;
  // mongod drops false-valued flags, so they must not make two specs differ.
  if (options.unique === false) delete options.unique;
  if (options.sparse === false) delete options.sparse;
  if (options.expireAfterSeconds !== undefined && typeof options.expireAfterSeconds !== 'number') {
    fail('InvalidOptions', "TTL index 'expireAfterSeconds' option must be numeric");
  }
  const name = typeof rawName === 'string' && rawName ? rawName : defaultIndexName(key as IndexKey);
  return { v: 2, key: key as IndexKey, name, ...options };
}

export function sameKey(a: IndexKey, b: IndexKey): boolean {
  return keyOf(a) === keyOf(b);
}

export function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  return SEMANTIC_OPTIONS.every((opt) => keyOf(a[opt]) === keyOf(b[opt]));
}

interface KeyEntry {
  key: string;
  values: unknown[];
}

/**
 * A secondary index: canonical key string -> ids of documents holding it.
 * Serves uniqueness checks and equality lookups in O(1).
 */
export class Index {
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly unique: boolean;
  private readonly entries = new Map<string, Set<string>>();
  private readonly partial: Query | undefined;
  /** Case-insensitive collation: keys hold folded strings, so `Bob` and `bob` collide. */
  private readonly foldStrength: 1 | 2 | undefined;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    this.foldStrength = parseCollation(spec.collation)?.foldStrength;
    this.partial = spec.partialFilterExpression ? new Query(spec.partialFilterExpression, {}) : undefined;
  }

  /** Usable for `{field: value}` lookups: single ascending/descending field, covering every document. */
  get servesEquality(): boolean {
    return (
      this.fields.length === 1 &&
      !this.partial &&
      !this.foldStrength &&
      typeof this.spec.key[this.fields[0]!] === 'number'
    );
  }

  /** mongod refuses a write whose 2dsphere field holds something other than a geometry (code 16755). */
  assertGeoKeys(doc: Doc): void {
    for (const field of this.fields) {
      if (this.spec.key[field] !== '2dsphere') continue;
      for (const value of geoValuesAtPath(doc, field)) {
        const problem = geoKeyProblem(value);
        if (problem) fail('Location16755', `Can't extract geo keys: ${formatDoc(doc)}  ${problem}`);
      }
    }
  }

  /** Key entries of a document, or null when the index leaves it out (sparse/partial). */
  keyEntries(doc: Doc): KeyEntry[] | null {
    if (this.partial && !this.partial.test(doc)) return null;
    const perField = this.fields.map((f) => valuesAtPath(doc, f));
    if (this.spec.sparse && perField.every((vals) => vals.every((v) => v === MISSING))) return null;
    let combos: unknown[][] = [[]];
    for (const vals of perField) {
      const next: unknown[][] = [];
      for (const combo of combos) {
        for (const v of vals) next.push([...combo, v === MISSING ? null : v]);
      }
      combos = next;
    }
    const seen = new Set<string>();
    const out: KeyEntry[] = [];
    for (const values of combos) {
      const keyed = this.foldStrength ? values.map((v) => foldValue(v, this.foldStrength!)) : values;
      const key = keyed.length === 1 ? keyOf(keyed[0]) : JSON.stringify(keyed.map(keyOf));
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ key, values });
      }
    }
    return out;
  }

  add(doc: Doc, id: string): void {
    for (const { key } of this.keyEntries(doc) ?? []) {
      const ids = this.entries.get(key) ?? new Set<string>();
      this.entries.set(key, ids);
      ids.add(id);
    }
  }

  remove(doc: Doc, id: string): void {
    for (const { key } of this.keyEntries(doc) ?? []) {
      const ids = this.entries.get(key);
      if (!ids) continue;
      ids.delete(id);
      if (ids.size === 0) this.entries.delete(key);
    }
  }

  /** Throws mongod's E11000 error if `doc` (stored as `id`) would duplicate a key, or 16755 for a bad geo key. */
  assertUnique(doc: Doc, id: string, ns: string): void {
    this.assertGeoKeys(doc);
    if (!this.unique) return;
    for (const { key, values } of this.keyEntries(doc) ?? []) {
      const ids = this.entries.get(key);
      if (!ids) continue;
      for (const other of ids) {
        if (other !== id) throw duplicateKeyError(ns, this.spec, values);
      }
    }
  }

  /** Ids holding exactly this canonical single-field key. */
  lookup(valueKey: string): ReadonlySet<string> | undefined {
    return this.entries.get(valueKey);
  }
}

export function duplicateKeyError(ns: string, spec: IndexSpec, values: unknown[]): DevDbError {
  const keyValue: Doc = {};
  for (const [i, field] of Object.keys(spec.key).entries()) keyValue[field] = values[i] ?? null;
  const keyPattern: Doc = { ...spec.key };
  const msg = `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: ${formatDoc(keyValue)}`;
  return new DevDbError('DuplicateKey', msg, { keyPattern, keyValue });
}
