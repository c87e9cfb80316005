import { Aggregator, Context, update as mingoUpdate, ProcessingMode } from 'mingo';
import type { Options } from 'mingo/types';
import type { Modifier } from 'mingo/updater';
import { MingoError } from 'mingo/util';
import { ARRAY_FILTER_CONTEXT } from './array-filters.js';
import { fail } from './errors.js';
import { setPath } from './paths.js';
import { mingoOptions, type QueryContext } from './query.js';
import { checkOperandTypes } from './update-operand-types.js';
import { cloneDoc, type Doc, isPlainObject, keyOf, withIdFirst } from './values.js';

const UPDATE_OPERATORS = new Set([
  '$currentDate',
  '$inc',
  '$min',
  '$max',
  '$mul',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
  '$addToSet',
  '$pop',
  '$pull',
  '$push',
  '$pullAll',
  '$bit',
]);

type UpdateKind = 'operators' | 'replacement' | 'pipeline';

/** Stages mongod accepts in an update pipeline. */
const UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export function classifyUpdate(u: unknown): UpdateKind {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const op = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!op || !UPDATE_STAGES.has(op))
        fail('InvalidOptions', `${String(op)} is not allowed to be used within an update`);
    }
    return 'pipeline';
  }
  if (!isPlainObject(u)) fail('FailedToParse', 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  const ops = keys.filter((k) => k.startsWith('$'));
  // mongod decides by the first field: a replacement may not hold `$` fields at its top level (5.0+).
  if (keys.length === 0 || !keys[0]!.startsWith('$')) {
    const dollar = ops[0];
    if (dollar) {
      fail(
        'DollarPrefixedFieldName',
        `The dollar ($) prefixed field '${dollar}' in '${dollar}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    }
    return 'replacement';
  }
  if (ops.length !== keys.length) {
    fail(
      'FailedToParse',
      `Unknown modifier: ${keys.find((k) => !k.startsWith('$'))}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  for (const op of ops) {
    if (!UPDATE_OPERATORS.has(op)) {
      fail(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(u[op]))
      fail(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeof u[op]} instead. For example: {$mod: {<field>: ...}} not {$set: ${String(u[op])}}`,
      );
    for (const path of Object.keys(u[op] as Doc)) assertStorablePath(op, path);
  }
  return 'operators';
}

/** Update operators cannot create `$`-prefixed fields (only `$setField` in a pipeline can). */
function assertStorablePath(op: string, path: string): void {
  const target = op === '$rename' ? undefined : path;
  for (const part of (target ?? '').split('.')) {
    if (part === '$' || part === '$[]' || /^\$\[[a-zA-Z0-9_]*\]$/.test(part)) continue;
    if (part.startsWith('$')) {
      fail('DollarPrefixedFieldName', `The dollar ($) prefixed field '${part}' in '${path}' is not valid for storage.`);
    }
  }
}

export interface UpdateOptions extends QueryContext {
  /** As parseArrayFilters gives them. */
  arrayFilters?: Doc[];
  /** The statement's filter; mingo needs it to resolve the positional `$`. */
  filter?: Doc;
}

/**
 * Applies an update to a copy of `doc`. Returns the new document, or null when
 * the update changes nothing (so callers neither journal nor count it).
 */
export function applyUpdate(doc: Doc, u: unknown, opts: UpdateOptions, isInsert = false): Doc | null {
  const kind = classifyUpdate(u);
  if (kind === 'replacement') {
    const replacement = u as Doc;
    if ('_id' in replacement && keyOf(replacement._id) !== keyOf(doc._id)) {
      fail(
        'ImmutableField',
        "After applying the update, the (immutable) field '_id' was found to have been altered to _id: " +
          String(replacement._id),
      );
    }
    const next = { ...cloneDoc(replacement), _id: doc._id };
    const ordered = withIdFirst(next);
    return keyOf(ordered) === keyOf(doc) ? null : ordered;
  }
  if (kind === 'pipeline') return applyPipeline(doc, u as Doc[], opts, isInsert);
  const modifier = effectiveModifier(u as Doc, isInsert);
  if (Object.keys(modifier).length === 0) return isInsert ? withIdFirst(doc) : null;
  const next = cloneDoc(doc);
  // An upsert may choose the new document's _id with $set or $setOnInsert (mongod allows it).
  if (isInsert && isPlainObject(modifier.$set) && '_id' in modifier.$set && !('_id' in next)) {
    const { _id, ...rest } = modifier.$set;
    next._id = cloneDoc(_id);
    modifier.$set = rest;
    if (Object.keys(rest).length === 0) delete modifier.$set;
  }
  checkOperandTypes(next, modifier);
  const needsCondition = !isInsert && usesPositional(modifier);
  let changed: string[];
  try {
    changed = mingoUpdate(
      next,
      modifier as Modifier<Doc>,
      opts.arrayFilters,
      needsCondition ? opts.filter : undefined,
      { cloneMode: 'copy', queryOptions: updateQueryOptions(opts) },
    );
  } catch (err) {
    if (err instanceof MingoError && err.message.includes('immutable field')) fail('ImmutableField', err.message);
    throw err;
  }
  if (changed.length === 0 && !isInsert) return null;
  if (!isInsert && keyOf(next._id) !== keyOf(doc._id)) {
    fail('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return withIdFirst(next);
}

/** mingo's options for an update's queries: the array filters' operator too (devdb/src/array-filters.ts). */
function updateQueryOptions(opts: UpdateOptions): Partial<Options> {
  const base = mingoOptions(opts);
  if (!opts.arrayFilters) return base;
  return { ...base, context: Context.from(base.context ?? Context.init(), ARRAY_FILTER_CONTEXT) };
}

/** Runs an update pipeline over one document; a result without `_id` keeps the old one, as in mongod. */
function applyPipeline(doc: Doc, stages: Doc[], opts: UpdateOptions, isInsert: boolean): Doc | null {
  const aggregator = new Aggregator(stages, { ...mingoOptions(opts), processingMode: ProcessingMode.CLONE_INPUT });
  const out = aggregator.run<Doc>([cloneDoc(doc)])[0] ?? {};
  if (!('_id' in out) && '_id' in doc) out._id = doc._id;
  if ('_id' in doc && keyOf(out._id) !== keyOf(doc._id)) {
    fail('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  const next = withIdFirst(out);
  return !isInsert && keyOf(next) === keyOf(doc) ? null : next;
}

/** `$setOnInsert` only applies when the update inserts; then it acts like `$set`. */
function effectiveModifier(u: Doc, isInsert: boolean): Doc {
  const { $setOnInsert, ...rest } = u;
  if (!isInsert || !isPlainObject($setOnInsert)) return rest;
  return { ...rest, $set: { ...(rest.$set as Doc | undefined), ...$setOnInsert } };
}

function usesPositional(modifier: Doc): boolean {
  return Object.values(modifier).some(
    (fields) => isPlainObject(fields) && Object.keys(fields).some((p) => p.endsWith('.$') || p.includes('.$.')),
  );
}

/** The document an upsert starts from: the filter's equality conditions. */
export function upsertSeed(filter: Doc, out: Doc = {}): Doc {
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const clause of cond) if (isPlainObject(clause)) upsertSeed(clause, out);
      continue;
    }
    if (field.startsWith('$')) continue;
    if (isPlainObject(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
      const ops = Object.keys(cond);
      if (ops.length === 1 && ops[0] === '$eq') setPath(out, field, cloneDoc(cond.$eq));
      else if (ops.length === 1 && ops[0] === '$in' && Array.isArray(cond.$in) && cond.$in.length === 1) {
        setPath(out, field, cloneDoc(cond.$in[0]));
      }
      continue;
    }
    setPath(out, field, cloneDoc(cond));
  }
  return out;
}

/** Builds the document an upsert inserts; `_id` comes from the filter or is generated. */
export function upsertDocument(filter: Doc, u: unknown, opts: UpdateOptions): Doc {
  const seed = upsertSeed(filter);
  if (classifyUpdate(u) === 'replacement') {
    const replacement = cloneDoc(u as Doc);
    if (!('_id' in replacement) && '_id' in seed) replacement._id = seed._id;
    return withIdFirst(replacement);
  }
  return applyUpdate(seed, u, opts, true)!;
}
