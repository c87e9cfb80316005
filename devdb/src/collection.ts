import { fail } from './errors.js';
import {
  duplicateKeyError,
  ID_INDEX_SPEC,
  Index,
  type IndexSpec,
  type KeyEntry,
  sameKey,
  sameOptions,
} from './indexes.js';
import { type Doc, isPlainObject, keyOf, withIdFirst } from './values.js';

/** Receives one journal record per applied change; absent in memory-only mode. */
export type JournalSink = ((record: Doc) => void) | undefined;

/**
 * Documents keyed by canonical `_id` key (the Map doubles as the `_id` index and
 * keeps insertion order as natural order). Stored documents are never mutated
 * in place: updates swap in a new object, so open cursors keep a stable view.
 */
export class Collection {
  readonly docs = new Map<string, Doc>();
  readonly indexes = new Map<string, Index>();
  /** A view's computed contents: keys are positions, not `_id`s, so no index lookups. */
  virtual = false;

  constructor(
    readonly dbName: string,
    readonly name: string,
    public options: Doc,
    private readonly journal: JournalSink,
  ) {}

  get ns(): string {
    return `${this.dbName}.${this.name}`;
  }

  /** Read-only views are stored as collections whose options hold `viewOn` and `pipeline`. */
  get isView(): boolean {
    return typeof this.options.viewOn === 'string';
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX_SPEC, ...[...this.indexes.values()].map((i) => i.spec)];
  }

  /** Inserts a new document (adding `_id` if absent) and returns the stored form. */
  insert(input: Doc): Doc {
    const doc = withIdFirst(input);
    validateId(doc._id);
    const id = keyOf(doc._id);
    if (this.docs.has(id)) throw duplicateKeyError(this.ns, ID_INDEX_SPEC, [doc._id]);
    // Each index's keys are worked out once, for the uniqueness check and for filing the document.
    const keyed: [Index, KeyEntry[] | null][] = [];
    for (const index of this.indexes.values()) {
      const entries = index.keyEntries(doc);
      index.assertUnique(doc, id, this.ns, entries);
      keyed.push([index, entries]);
    }
    this.docs.set(id, doc);
    for (const [index, entries] of keyed) index.add(doc, id, entries);
    this.journal?.({ o: 'put', c: this.name, d: doc });
    return doc;
  }

  /** Swaps a stored document for its updated version; `_id` must not change. */
  replace(oldDoc: Doc, newDoc: Doc): void {
    const id = keyOf(oldDoc._id);
    if (keyOf(newDoc._id) !== id) {
      fail('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    for (const index of this.indexes.values()) index.assertUnique(newDoc, id, this.ns);
    for (const index of this.indexes.values()) index.remove(oldDoc, id);
    this.store(id, newDoc);
  }

  remove(doc: Doc): void {
    const id = keyOf(doc._id);
    if (!this.docs.delete(id)) return;
    for (const index of this.indexes.values()) index.remove(doc, id);
    this.journal?.({ o: 'del', c: this.name, id: doc._id });
  }

  /** Journal replay: state records are trusted, so no uniqueness checks. */
  replayPut(doc: Doc): void {
    const id = keyOf(doc._id);
    const old = this.docs.get(id);
    if (old) for (const index of this.indexes.values()) index.remove(old, id);
    this.docs.set(id, doc);
    for (const index of this.indexes.values()) index.add(doc, id);
  }

  replayDelete(idValue: unknown): void {
    const id = keyOf(idValue);
    const old = this.docs.get(id);
    if (!old) return;
    this.docs.delete(id);
    for (const index of this.indexes.values()) index.remove(old, id);
  }

  /**
   * Returns false when an identical index already exists. Conflicting
   * name/key/options combinations fail the way mongod does (85/86).
   */
  createIndex(spec: IndexSpec, opts: { replay?: boolean } = {}): boolean {
    if (sameKey(spec.key, ID_INDEX_SPEC.key)) return false;
    if (spec.name === ID_INDEX_SPEC.name)
      fail('IndexKeySpecsConflict', "The index name '_id_' is reserved for the _id index");
    const byName = this.indexes.get(spec.name);
    if (byName) {
      if (!sameKey(byName.spec.key, spec.key)) {
        fail(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
        );
      }
      if (!sameOptions(byName.spec, spec)) {
        fail(
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
        );
      }
      return false;
    }
    for (const existing of this.indexes.values()) {
      if (sameKey(existing.spec.key, spec.key) && !distinguishable(existing.spec, spec)) {
        fail('IndexOptionsConflict', `Index already exists with a different name: ${existing.spec.name}`);
      }
    }
    const index = new Index(spec);
    for (const [id, doc] of this.docs) {
      if (!opts.replay) index.assertUnique(doc, id, this.ns);
      index.add(doc, id);
    }
    this.indexes.set(spec.name, index);
    if (!opts.replay) this.journal?.({ o: 'index', c: this.name, spec });
    return true;
  }

  dropIndex(name: string, opts: { replay?: boolean } = {}): void {
    if (name === ID_INDEX_SPEC.name) fail('InvalidOptions', 'cannot drop _id index');
    if (!this.indexes.delete(name)) fail('IndexNotFound', `index not found with name [${name}]`);
    if (!opts.replay) this.journal?.({ o: 'dropIndex', c: this.name, name });
  }

  /**
   * Documents that can possibly match `filter`, found through `_id` or a
   * single-field index when the filter pins such a field to a simple value;
   * undefined means "scan everything".
   */
  candidates(filter: Doc): Doc[] | undefined {
    if (this.virtual) return undefined;
    for (const [field, cond] of Object.entries(filter)) {
      if (field === '$and' && Array.isArray(cond)) {
        for (const clause of cond) {
          const found = isPlainObject(clause) ? this.candidates(clause) : undefined;
          if (found) return found;
        }
        continue;
      }
      if (field.startsWith('$')) continue;
      const keys = equalityKeys(cond);
      if (!keys) continue;
      if (field === '_id') return this.collect(keys.map((k) => this.docs.get(k)));
      for (const index of this.indexes.values()) {
        if (!index.servesEquality || index.fields[0] !== field) continue;
        const found: (Doc | undefined)[] = [];
        const seen = new Set<string>();
        for (const k of keys) {
          for (const id of index.lookup(k) ?? []) {
            if (!seen.has(id)) {
              seen.add(id);
              found.push(this.docs.get(id));
            }
          }
        }
        return this.collect(found);
      }
    }
    return undefined;
  }

  private collect(found: (Doc | undefined)[]): Doc[] {
    return found.filter((d): d is Doc => d !== undefined);
  }

  private store(id: string, doc: Doc): void {
    this.docs.set(id, doc);
    for (const index of this.indexes.values()) index.add(doc, id);
    this.journal?.({ o: 'put', c: this.name, d: doc });
  }
}

/** mongod allows several indexes on one key pattern only if these options differ. */
function distinguishable(a: IndexSpec, b: IndexSpec): boolean {
  return (
    keyOf(a.partialFilterExpression) !== keyOf(b.partialFilterExpression) || keyOf(a.collation) !== keyOf(b.collation)
  );
}

function validateId(id: unknown): void {
  if (Array.isArray(id)) fail('BadValue', "The '_id' value cannot be of type array");
  if (id instanceof RegExp) fail('BadValue', "can't use a regex for _id");
  const dollar = dollarKey(id);
  if (dollar)
    fail(
      'DollarPrefixedFieldName',
      `_id fields may not contain '$'-prefixed fields: ${dollar} is not valid for storage.`,
    );
}

/** The first `$`-prefixed field name inside an `_id` document, at any depth. */
function dollarKey(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.map(dollarKey).find((k) => k !== undefined);
  if (!isPlainObject(v)) return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) return k;
    const inner = dollarKey(x);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Canonical keys for `{f: v}`, `{f: {$eq: v}}` and `{f: {$in: [...]}}` when every
 * value is a type whose canonical key matches mingo's equality exactly.
 */
function equalityKeys(cond: unknown): string[] | undefined {
  if (isIndexable(cond)) return [keyOf(cond)];
  if (!isPlainObject(cond)) return undefined;
  const ops = Object.keys(cond);
  if (ops.length !== 1) return undefined;
  if (ops[0] === '$eq' && isIndexable(cond.$eq)) return [keyOf(cond.$eq)];
  if (ops[0] === '$in' && Array.isArray(cond.$in) && cond.$in.every(isIndexable)) {
    return cond.$in.map(keyOf);
  }
  return undefined;
}

function isIndexable(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      if (v instanceof Date) return true;
      return v !== null && (v as { _bsontype?: unknown })._bsontype === 'ObjectId';
    default:
      return false;
  }
}
