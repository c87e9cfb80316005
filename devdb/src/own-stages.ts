import type { Iterator } from 'mingo/lazy';
import { Lazy } from 'mingo/lazy';
import { $addFields, $lookup } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { assert, ensureArray, flatten, isEmpty, isOperator, MingoError } from 'mingo/util';
import { COMPILED_OPERATOR, compiledForStage } from './expressions.js';
import { compileQuery } from './filter-compile.js';
import { KeyedEntries } from './group-keys.js';
import { pathReader, plainName } from './paths.js';
import { cloneDoc, type Doc, isPlainObject } from './values.js';

/**
 * devdb's own versions of the per-document stages the dashboards and experiment results run, for their common
 * forms: each gives what mingo's stage gives (values, key order, shared or copied objects, errors), without mingo's
 * per-document dispatch, option copies and path walking. Any other form stays mingo's stage.
 */

/** A stage devdb runs itself, inside a mingo pipeline: `{$devdbStage: {run}}`. */
export const OWN_STAGE_OPERATOR = '$devdbStage';

type Run = (docs: Iterator, options: Options) => Iterator;

/** The pipeline operator behind `{$devdbStage: {run}}`; a client's pipeline naming it gets mingo's answer. */
export function $devdbStage(docs: Iterator, spec: unknown, options: Options): Iterator {
  const run = isPlainObject(spec) ? spec.run : undefined;
  if (typeof run !== 'function') throw new MingoError(`unregistered pipeline operator ${OWN_STAGE_OPERATOR}.`);
  return (run as Run)(docs, options);
}

/** `stage` as a stage devdb runs itself, or undefined for forms left to mingo. */
export function ownStage(stage: Doc): Doc | undefined {
  const keys = Object.keys(stage);
  if (keys.length !== 1) return undefined;
  const name = keys[0]!;
  const spec = stage[name];
  const build = RUNS[name];
  // $$NOW is read once per evaluation in some of mingo's stages and once per stage in others; a `$lookup` pipeline
  // runs through mingo's stage anyway (per document), which alone would run it over every foreign document.
  if (!build || (name !== '$lookup' && mentionsNow(spec))) return undefined;
  const run = build(spec);
  return run ? { [OWN_STAGE_OPERATOR]: { run } } : undefined;
}

const RUNS: Record<string, (spec: unknown) => Run | undefined> = {
  $match: matchStage,
  $addFields: addFieldsStage,
  $set: addFieldsStage,
  $project: projectStage,
  $unwind: unwindStage,
  $lookup: lookupStage,
};

function mentionsNow(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('$$NOW');
  if (Array.isArray(value)) return value.some(mentionsNow);
  return isPlainObject(value) && Object.values(value).some(mentionsNow);
}

/** `$match`: devdb's compiled filter (mingo's `$match` runs its Query with the stage's options, as this does). */
function matchStage(spec: unknown): Run | undefined {
  if (!isPlainObject(spec)) return undefined;
  return (docs, options) => {
    const test = compileQuery(spec, options);
    return docs.filter((doc) => test(doc as Doc));
  };
}

/** The compiled evaluation of a stage's expression, as mingo's stage would evaluate it. */
function evaluator(expr: unknown): (doc: Doc, options: Options) => unknown {
  return compiledForStage(expr)[COMPILED_OPERATOR] as (doc: Doc, options: Options) => unknown;
}

/** `$addFields`/`$set` of top-level fields: a shallow copy, each field set, or deleted when undefined. */
function addFieldsStage(spec: unknown): Run | undefined {
  if (!isPlainObject(spec)) return undefined;
  const fields = Object.keys(spec);
  if (fields.length === 0 || !fields.every(plainName)) return undefined;
  const values = fields.map((field) => evaluator(spec[field]));
  return (docs, options) =>
    docs.map((input) => {
      const doc = input as Doc;
      const out: Doc = { ...doc };
      for (let i = 0; i < fields.length; i++) {
        const value = values[i]!(doc, options);
        if (value !== undefined) out[fields[i]!] = value;
        else delete out[fields[i]!];
      }
      return out;
    });
}

/**
 * `$addFields`/`$set` writing a nested path (`'meta.n'`), as mingo's stage with each written field's top-level value
 * copied first: mingo's stage shallow-copies the document and writes into the objects below, which other documents
 * may hold too (the same foreign document joined by `$lookup` to several). Other forms return undefined.
 */
export function nestedWriteStage(stage: Doc): Doc | undefined {
  const keys = Object.keys(stage);
  const spec = stage[keys[0]!];
  if (keys.length !== 1 || (keys[0] !== '$addFields' && keys[0] !== '$set') || !isPlainObject(spec)) return undefined;
  const tops = [
    ...new Set(
      Object.keys(spec)
        .filter((field) => field.includes('.'))
        .map((f) => f.split('.')[0]!),
    ),
  ];
  if (tops.length === 0) return undefined;
  const copied = (doc: Doc): Doc => {
    const out = { ...doc };
    for (const top of tops) if (Object.hasOwn(doc, top)) out[top] = cloneDoc(doc[top]);
    return out;
  };
  const run: Run = (docs, options) =>
    $addFields(
      docs.map((doc) => copied(doc as Doc)),
      spec,
      options,
    );
  return { [OWN_STAGE_OPERATOR]: { run } };
}

/** mingo's projection operators: in `$project` they are not expressions. */
const PROJECTION_OPERATORS = new Set(['$slice', '$elemMatch']);

/** A `$project` value that mingo evaluates as an expression: a field path or an expression operator. */
export function projectsExpression(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('$');
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && isOperator(keys[0]!) && !PROJECTION_OPERATORS.has(keys[0]!);
}

/**
 * `$project` of top-level fields, included or computed, `_id` unnamed: as mingo builds it, the fields in sorted
 * order (a computed one set even when undefined, an included one only when present), then `_id`.
 */
function projectStage(spec: unknown): Run | undefined {
  if (!isPlainObject(spec)) return undefined;
  const fields = Object.keys(spec).sort();
  if (fields.length === 0 || !fields.every((field) => plainName(field) && field !== '_id')) return undefined;
  const included = (v: unknown) => v === true || (typeof v === 'number' && Number.isFinite(v) && v !== 0);
  if (!fields.every((field) => included(spec[field]) || projectsExpression(spec[field]))) return undefined;
  const values = fields.map((field) => (included(spec[field]) ? undefined : evaluator(spec[field])));
  return (docs, options) =>
    docs.map((input) => {
      const doc = input as Doc;
      const out: Doc = {};
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i]!;
        const value = values[i];
        if (value) out[field] = value(doc, options);
        else if (doc[field] !== undefined) out[field] = doc[field];
      }
      if (Object.hasOwn(doc, '_id') && !Object.hasOwn(out, '_id')) out._id = doc._id;
      return out;
    });
}

/**
 * `$unwind` of a top-level field without options: a shallow copy per element (the field set to it), the document
 * itself for a value that is neither an array nor empty (null, missing, '' and {} drop it), nothing for [].
 */
function unwindStage(spec: unknown): Run | undefined {
  const path =
    typeof spec === 'string' ? spec : isPlainObject(spec) && Object.keys(spec).length === 1 ? spec.path : undefined;
  if (typeof path !== 'string' || !path.startsWith('$') || !plainName(path.slice(1))) return undefined;
  const field = path.slice(1);
  return (docs) => {
    let doc: Doc | undefined;
    let items: unknown[] = [];
    let next = 0;
    return Lazy(() => {
      for (;;) {
        if (next < items.length) {
          const out: Doc = { ...doc };
          out[field] = items[next++];
          return { value: out, done: false };
        }
        const step = docs.next();
        if (step.done) return step;
        doc = step.value as Doc;
        const value = doc[field];
        items = [];
        next = 0;
        if (Array.isArray(value)) items = value;
        else if (!isEmpty(value)) return { value: doc, done: false };
      }
    });
  };
}

/**
 * `$lookup` by `localField`/`foreignField`: the foreign documents keyed as mingo keys them (each value of the
 * foreign field, null for none), every document copied with `as` set to the matching list; documents with equal
 * keys share that list, as in mingo. With a `pipeline` too (the concise correlated form, with or without `let`),
 * that pipeline runs over each document's matching list only, where mingo's stage would run it over the whole
 * foreign collection.
 */
function lookupStage(spec: unknown): Run | undefined {
  if (!isPlainObject(spec)) return undefined;
  const keys = Object.keys(spec).sort().join();
  const correlated =
    keys === 'as,foreignField,from,let,localField,pipeline' || keys === 'as,foreignField,from,localField,pipeline';
  if (keys !== 'as,foreignField,from,localField' && !correlated) return undefined;
  const { from, localField, foreignField, as, pipeline } = spec;
  if (![from, localField, foreignField, as].every((v) => typeof v === 'string' && v !== '')) return undefined;
  if (correlated && !(Array.isArray(pipeline) && pipeline.every(isPlainObject))) return undefined;
  const localValue = pathReader(localField as string);
  const foreignValue = pathReader(foreignField as string);
  // An empty pipeline is the plain form, as in mingo.
  const stages = correlated && (pipeline as Doc[]).length > 0 ? subPipeline(pipeline as Doc[]) : undefined;
  type LookupSpec = Parameters<typeof $lookup>[1];
  return (docs, options) => {
    assert(!!options.collectionResolver, "$lookup requires 'collectionResolver' option to resolve named collection");
    const foreign = options.collectionResolver!(from as string);
    assert(Array.isArray(foreign), '$lookup could not resolve input collection');
    const byKey = new KeyedEntries<Doc[]>();
    for (const doc of foreign as Doc[]) {
      for (const v of ensureArray(foreignValue(doc) ?? null)) {
        const list = byKey.get(v);
        if (list) list.push(doc);
        else byKey.add(v, [doc]);
      }
    }
    const matching = (doc: Doc): Doc[] => {
      const local = localValue(doc) ?? null;
      // An element matching nothing adds nothing (mingo's list gets an undefined, a null on the wire).
      return Array.isArray(local)
        ? Array.from(new Set(flatten(local.map((v) => byKey.get(v) ?? [])) as Doc[]))
        : (byKey.get(local) ?? []);
    };
    if (!stages) return docs.map((input) => ({ ...(input as Doc), [as as string]: matching(input as Doc) }));
    // mingo's stage over the matches alone, with its `let` and variables.
    const sub = { let: spec.let, pipeline: stages, as };
    return docs.map((input) => {
      const doc = input as Doc;
      return $lookup(Lazy([doc]), { ...sub, from: matching(doc) } as LookupSpec, options).next().value as Doc;
    });
  };
}

/**
 * `stage` with every `$lookup` by `localField`/`foreignField` in the sub-pipelines it holds (`$facet`, `$lookup`,
 * `$unionWith`, at any depth) run as devdb's own, so a nested one matches as a top-level one does; a `$lookup`
 * pipeline also copies the foreign documents it may change (subPipeline).
 */
export function withNestedLookups(stage: Doc): Doc {
  const keys = Object.keys(stage);
  if (keys.length !== 1) return stage;
  const name = keys[0]!;
  const spec = stage[name];
  if (!isPlainObject(spec)) return stage;
  if (name === '$facet') {
    const facets = Object.entries(spec).map(([facet, p]) => [facet, Array.isArray(p) ? p.map(withOwnLookups) : p]);
    return { $facet: Object.fromEntries(facets) };
  }
  if (name === '$lookup' && Array.isArray(spec.pipeline))
    return { $lookup: { ...spec, pipeline: subPipeline(spec.pipeline) } };
  if (name === '$unionWith' && Array.isArray(spec.pipeline)) {
    return { $unionWith: { ...spec, pipeline: spec.pipeline.map(withOwnLookups) } };
  }
  return stage;
}

/** Stages that hand on the documents they are given, unchanged. */
const FILTERING_STAGES = new Set(['$match', '$limit', '$skip', '$sort']);

/**
 * A `$lookup` sub-pipeline as devdb runs it: its nested lookups devdb's own, and the foreign documents copied after
 * its leading filtering stages. It runs once per input document over the same foreign documents, and a stage
 * writing a nested path (`$set: {'meta.n': ...}`) changes the object it was given: without copies each run would
 * see the previous runs' changes.
 */
function subPipeline(pipeline: unknown[]): Doc[] {
  const stages = pipeline.map(withOwnLookups) as Doc[];
  let filters = 0;
  while (isPlainObject(stages[filters]) && FILTERING_STAGES.has(Object.keys(stages[filters]!).join())) filters++;
  if (filters === stages.length) return stages;
  const copy = { [OWN_STAGE_OPERATOR]: { run: (docs: Iterator) => docs.map((doc) => cloneDoc(doc)) } };
  return [...stages.slice(0, filters), copy, ...stages.slice(filters)];
}

/** A stage of a sub-pipeline: a `$lookup` by `localField`/`foreignField` as devdb's own, others with their nested ones. */
function withOwnLookups<T>(stage: T): T {
  if (!isPlainObject(stage)) return stage;
  const run = Object.keys(stage).length === 1 ? lookupStage(stage.$lookup) : undefined;
  return (run ? { [OWN_STAGE_OPERATOR]: { run } } : (nestedWriteStage(stage) ?? withNestedLookups(stage))) as T;
}
