import { Aggregator, ProcessingMode } from 'mingo';
import { Collection } from './collection.js';
import { fail } from './errors.js';
import { compileFilter, mingoOptions, type QueryContext } from './query.js';
import type { Database } from './store.js';
import { cloneDoc, type Doc, isPlainObject } from './values.js';

/** mongod's limit on views defined on views. */
const MAX_VIEW_DEPTH = 20;

/**
 * Runs aggregation stages over `source`. Under a case-insensitive collation the
 * leading `$match` stages run through devdb's folding filter (mingo's `$match`
 * ignores collations); `$lookup` sees the database's collections and views.
 */
export function runPipeline(db: Database | undefined, stages: Doc[], source: Doc[], ctx: QueryContext): Doc[] {
  let rest = stages;
  // Leading $match stages run as find filters do: folded under a case-insensitive collation, and a large
  // `$in` answered by a key set (mingo's own $match would be quadratic over it).
  while (rest[0] && isPlainObject(rest[0].$match)) {
    const test = compileFilter(rest[0].$match, ctx);
    source = source.filter(test);
    rest = rest.slice(1);
  }
  rest = rest.map((stage) => unionWithPrefiltered(db, stage, ctx) ?? stage);
  const options = mingoOptions({
    ...ctx,
    // $lookup etc. may hand foreign documents to later stages that modify them.
    collectionResolver: (name) => cloneDoc([...(readable(db, name)?.docs.values() ?? [])]),
  });
  // Stages such as $addFields shallow-copy and then write nested paths, which
  // would otherwise reach into stored documents.
  return new Aggregator(rest, { ...options, processingMode: ProcessingMode.CLONE_INPUT }).run<Doc>(source);
}

/**
 * A top-level `$unionWith` whose sub-pipeline starts with `$match`, rewritten to carry its input: the documents of
 * the collection that pass that `$match` (narrowed by an index as a find is, tested by the compiled filter, and
 * cloned so later stages may modify them), followed by the rest of the sub-pipeline. Without this, mingo gets a
 * clone of the whole foreign collection and runs the `$match` itself (quadratic over a large `$in`, and blind to
 * the command's collation). mingo takes an array as `coll` in place of a name. Other forms return undefined.
 */
function unionWithPrefiltered(db: Database | undefined, stage: Doc, ctx: QueryContext): Doc | undefined {
  const spec = stage.$unionWith;
  if (Object.keys(stage).length !== 1 || !isPlainObject(spec) || typeof spec.coll !== 'string') return undefined;
  const sub = spec.pipeline;
  if (!Array.isArray(sub) || !isPlainObject(sub[0]) || !isPlainObject(sub[0].$match)) return undefined;
  // Consecutive leading $match stages, as runPipeline's own leading ones.
  let next = 0;
  const filters: Doc[] = [];
  while (isPlainObject(sub[next]) && isPlainObject((sub[next] as Doc).$match)) {
    filters.push((sub[next] as Doc).$match as Doc);
    next++;
  }
  const coll = readable(db, spec.coll);
  const narrowed = coll && !ctx.collation ? coll.candidates(filters[0]!) : undefined;
  let docs = narrowed ?? [...(coll?.docs.values() ?? [])];
  for (const filter of filters) docs = docs.filter(compileFilter(filter, ctx));
  return { $unionWith: { ...spec, coll: cloneDoc(docs), pipeline: sub.slice(next) } };
}

/**
 * The collection reads of `name` see: the stored collection, or for a view a
 * read-only collection holding the view pipeline's output (computed per read).
 */
export function readable(db: Database | undefined, name: string, depth = 0): Collection | undefined {
  const coll = db?.collection(name);
  if (!coll?.isView) return coll;
  if (depth >= MAX_VIEW_DEPTH)
    fail('BadValue', `View depth too deep or view cycle detected; maximum depth is ${MAX_VIEW_DEPTH}`);
  const base = readable(db, String(coll.options.viewOn), depth + 1);
  const stages = Array.isArray(coll.options.pipeline) ? (coll.options.pipeline as Doc[]) : [];
  const collation = isPlainObject(coll.options.collation) ? { collation: coll.options.collation } : {};
  const docs = runPipeline(db, stages, [...(base?.docs.values() ?? [])], collation);
  const view = new Collection(coll.dbName, coll.name, coll.options, undefined);
  view.virtual = true;
  docs.forEach((d, i) => {
    view.docs.set(String(i), d);
  });
  return view;
}
