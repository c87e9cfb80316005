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

export interface KeyEntry {
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
  /** One id as a plain string, a Set only once a key is shared: most keys hold one document. */
  private readonly entries = new Map<string, string | Set<string>>();
  private readonly partial: Query | undefined;
  /** Case-insensitive collation: keys hold folded strings, so `Bob` and `bob` collide. */
  private readonly foldStrength: 1 | 2 | undefined;
  /** No dotted field: a document's own fields hold the keys, with no path to walk. */
  private readonly topLevel: boolean;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    this.foldStrength = parseCollation(spec.collation)?.foldStrength;
    this.partial = spec.partialFilterExpression ? new Query(spec.partialFilterExpression, {}) : undefined;
    this.topLevel = this.fields.every((field) => !field.includes('.'));
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
    if (this.topLevel) {
      const entry = this.scalarKeyEntry(doc);
      if (entry !== undefined) return entry && [entry];
    }
    return this.expandedKeyEntries(doc);
  }

  /**
   * The one entry of a document whose indexed fields are top-level non-array values (null when sparse leaves
   * it out), or undefined when some field holds an array and the multikey expansion must run.
   */
  private scalarKeyEntry(doc: Doc): KeyEntry | null | undefined {
    const { fields } = this;
    const values: unknown[] = new Array(fields.length);
    let present = false;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (!Object.hasOwn(doc, field)) {
        values[i] = null;
        continue;
      }
      const value = doc[field];
      if (Array.isArray(value)) return undefined;
      values[i] = value;
      present = true;
    }
    if (this.spec.sparse && !present) return null;
    return { key: this.keyFor(values), values };
  }

  /** Every field's values under MongoDB's multikey rules, one entry per distinct combination. */
  expandedKeyEntries(doc: Doc): KeyEntry[] | null {
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
      const key = this.keyFor(values);
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ key, values });
      }
    }
    return out;
  }

  /** One field's canonical key; several fields' keys each prefixed by its length, so no content forges a boundary. */
  private keyFor(values: unknown[]): string {
    const keyed = this.foldStrength ? values.map((v) => foldValue(v, this.foldStrength!)) : values;
    if (keyed.length === 1) return keyOf(keyed[0]);
    let key = '';
    for (const value of keyed) {
      const part = keyOf(value);
      key += `${part.length}:${part}`;
    }
    return key;
  }

  /** Files `id` under each key; `entries` are the document's, when the caller has them already. */
  add(doc: Doc, id: string, entries: KeyEntry[] | null = this.keyEntries(doc)): void {
    for (const { key } of entries ?? []) {
      const ids = this.entries.get(key);
      if (ids === undefined) this.entries.set(key, id);
      else if (typeof ids === 'string') {
        if (ids !== id) this.entries.set(key, new Set([ids, id]));
      } else ids.add(id);
    }
  }

  remove(doc: Doc, id: string): void {
    for (const { key } of this.keyEntries(doc) ?? []) {
      const ids = this.entries.get(key);
      if (ids === undefined) continue;
      if (typeof ids === 'string') {
        if (ids === id) this.entries.delete(key);
        continue;
      }
      ids.delete(id);
      if (ids.size === 1) this.entries.set(key, ids.values().next().value!);
    }
  }

  /**
   * Throws mongod's E11000 error if `doc` (stored as `id`) would duplicate a key, or 16755 for a bad geo key;
   * `entries` are the document's, when the caller has them already.
   */
  assertUnique(doc: Doc, id: string, ns: string, entries?: KeyEntry[] | null): void {
    this.assertGeoKeys(doc);
    if (!this.unique) return;
    for (const { key, values } of entries === undefined ? (this.keyEntries(doc) ?? []) : (entries ?? [])) {
      const ids = this.entries.get(key);
      if (ids === undefined || ids === id) continue;
      const others = typeof ids === 'string' ? 1 : ids.size - (ids.has(id) ? 1 : 0);
      if (others > 0) throw duplicateKeyError(ns, this.spec, values);
    }
  }

  /** Ids holding exactly this canonical single-field key. */
  lookup(valueKey: string): Iterable<string> {
    return this.ids(valueKey);
  }

  private ids(key: string): Iterable<string> {
    const ids = this.entries.get(key);
    return ids === undefined ? [] : typeof ids === 'string' ? [ids] : ids;
  }
}

export function duplicateKeyError(ns: string, spec: IndexSpec, values: unknown[]): DevDbError {
  const keyValue: Doc = {};
  for (const [i, field] of Object.keys(spec.key).entries()) keyValue[field] = values[i] ?? null;
  const keyPattern: Doc = { ...spec.key };
  const msg = `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: ${formatDoc(keyValue)}`;
  return new DevDbError('DuplicateKey', msg, { keyPattern, keyValue });
}
