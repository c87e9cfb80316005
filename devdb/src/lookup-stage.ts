import type { Iterator } from 'mingo/lazy';
import { Lazy } from 'mingo/lazy';
import { $addFields, $lookup } from 'mingo/operators/pipeline';
import { assert, ensureArray, flatten } from 'mingo/util';
import { KeyedEntries } from './group-keys.js';
import { OWN_STAGE_OPERATOR, type Run } from './own-stage-operator.js';
import { pathReader } from './paths.js';
import { cloneDoc, type Doc, isPlainObject } from './values.js';

/**
 * `$lookup` by `localField`/`foreignField` as devdb runs it, with the sub-pipelines that hold lookups (`$facet`,
 * `$lookup`, `$unionWith`) and the nested writes that must not reach the foreign documents a lookup shares.
 */

/**
 * `$lookup` by `localField`/`foreignField`: the foreign documents keyed as mingo keys them (each value of the
 * foreign field, null for none), every document copied with `as` set to the matching list; documents with equal
 * keys share that list, as in mingo. With a `pipeline` too (the concise correlated form, with or without `let`),
 * that pipeline runs over each document's matching list only, where mingo's stage would run it over the whole
 * foreign collection.
 */
export function lookupStage(spec: unknown): Run | undefined {
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
