import { Collection } from '../collection.js';
import { fail } from '../errors.js';
import { duplicateKeyError, ID_INDEX_SPEC, type IndexSpec } from '../indexes.js';
import { matching } from '../query.js';
import { applyUpdate } from '../update.js';
import { type Doc, isPlainObject, keyOf, withIdFirst } from '../values.js';
import type { CommandContext } from './context.js';

interface Target {
  db: string;
  coll: string;
}

function target(spec: unknown, ctx: CommandContext, stage: string): Target {
  if (typeof spec === 'string') return { db: ctx.db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === 'string') {
    return { db: typeof spec.db === 'string' ? spec.db : ctx.db, coll: spec.coll };
  }
  fail('FailedToParse', `${stage} requires a collection name or {db, coll}`);
}

/**
 * `$out`: replaces the target's documents with the results, keeping its
 * indexes; all or nothing, as mongod's temp-collection rename is.
 */
export function runOut(spec: unknown, docs: Doc[], ctx: CommandContext): void {
  const to = target(spec, ctx, '$out');
  const db = ctx.store.ensureDb(to.db);
  const existing = db.writableCollection(to.coll);
  const results = docs.map(withIdFirst);
  // Dry run on a scratch copy: a duplicate key must leave the target untouched.
  const scratch = new Collection(to.db, to.coll, {}, undefined);
  for (const index of existing?.indexes.values() ?? []) scratch.createIndex(index.spec, { replay: true });
  for (const doc of results) scratch.insert(doc);
  const coll = existing ?? db.ensureCollection(to.coll);
  for (const doc of [...coll.docs.values()]) coll.remove(doc);
  for (const doc of results) coll.insert(doc);
}

function onFields(spec: Doc): string[] {
  const on = spec.on ?? '_id';
  if (typeof on === 'string') return [on];
  if (Array.isArray(on) && on.length > 0 && on.every((f) => typeof f === 'string')) return on as string[];
  fail('TypeMismatch', "BSON field '$merge.on' is the wrong type, expected a string or an array of strings");
}

/** The unique index mongod requires on `on` (other than `_id`), with the same field set. */
function uniqueIndexFor(coll: Collection | undefined, fields: string[]): IndexSpec {
  if (fields.length === 1 && fields[0] === '_id') return ID_INDEX_SPEC;
  const wanted = [...fields].sort().join('\0');
  for (const index of coll?.indexes.values() ?? []) {
    if (index.unique && [...index.fields].sort().join('\0') === wanted && !index.spec.partialFilterExpression) {
      return index.spec;
    }
  }
  return fail('Location51183', 'Cannot find index to verify that join fields will be unique');
}

/** `$merge` with `whenMatched` replace/merge/keepExisting/fail/pipeline and `whenNotMatched` insert/discard/fail. */
export function runMerge(raw: unknown, docs: Doc[], ctx: CommandContext): void {
  const spec: Doc =
    typeof raw === 'string'
      ? { into: raw }
      : isPlainObject(raw)
        ? raw
        : fail('FailedToParse', '$merge requires a string or an object');
  const to = target(spec.into, ctx, '$merge');
  const fields = onFields(spec);
  const whenMatched = spec.whenMatched ?? 'merge';
  const whenNotMatched = spec.whenNotMatched ?? 'insert';
  const db = ctx.store.ensureDb(to.db);
  const coll = db.writableCollection(to.coll) ?? db.ensureCollection(to.coll);
  const index = uniqueIndexFor(coll, fields);
  for (const input of docs) {
    const doc = withIdFirst(input);
    for (const f of fields) {
      const v = doc[f];
      if (v === undefined || v === null || Array.isArray(v)) {
        fail('Location51132', "$merge write error: 'on' field cannot be missing, null, undefined or an array");
      }
    }
    const filter = Object.fromEntries(fields.map((f) => [f, { $eq: doc[f] }]));
    const found = matching(coll, filter)[0];
    if (!found) {
      if (whenNotMatched === 'insert') coll.insert(doc);
      else if (whenNotMatched === 'fail') {
        fail(
          'MergeStageNoMatchingDocument',
          '$merge could not find a matching document in the target collection for at least one document in the source collection',
        );
      }
      continue;
    }
    let next: Doc | null = null;
    if (whenMatched === 'replace') next = withIdFirst({ ...doc, _id: found._id });
    else if (whenMatched === 'merge') next = withIdFirst({ ...found, ...doc, _id: found._id });
    else if (whenMatched === 'fail')
      throw duplicateKeyError(
        coll.ns,
        index,
        fields.map((f) => doc[f]),
      );
    else if (Array.isArray(whenMatched)) {
      const vars = isPlainObject(spec.let) ? { ...spec.let, new: doc } : { new: doc };
      next = applyUpdate(found, whenMatched, { variables: vars });
    } else if (whenMatched !== 'keepExisting') {
      fail(
        'BadValue',
        `Enumeration value '${String(whenMatched)}' for field '$merge.whenMatched' is not a valid value.`,
      );
    }
    if (next && '_id' in input && keyOf(input._id) !== keyOf(found._id) && !fields.includes('_id')) {
      fail(
        'ImmutableField',
        '$merge failed to update the matching document, did you attempt to modify the _id or the shard key?',
      );
    }
    if (next) coll.replace(found, next);
  }
}
