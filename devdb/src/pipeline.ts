import { Aggregator, Context, ProcessingMode } from 'mingo';
import { Lazy } from 'mingo/lazy';
import { Collection } from './collection.js';
import { fail } from './errors.js';
import { drain, type Paced, type Pacer, runPaced, runToEnd, timeSlices, UNPACED } from './pacing.js';
import { groupStage } from './pipeline-group.js';
import { DEVDB_STAGES, withCompiledExpressions } from './pipeline-stages.js';
import { compileFilter, mingoOptions, type QueryContext } from './query.js';
import type { Database } from './store.js';
import { cloneDoc, type Doc, isPlainObject } from './values.js';

/** mongod's limit on views defined on views. */
const MAX_VIEW_DEPTH = 20;

/**
 * Stages whose output for a document depends on that document alone (and, for `$limit`/`$skip`/`$unionWith`,
 * on its position), so mingo hands out their results one at a time as they are pulled.
 */
const STREAMING_STAGES = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$unwind',
  '$lookup',
  '$redact',
  '$limit',
  '$skip',
  '$unionWith',
]);

/**
 * Runs aggregation stages over `source` in one call (views, which are computed inside another command). Results
 * are those of runPipelinePaced.
 */
export function runPipeline(db: Database | undefined, stages: Doc[], source: Doc[], ctx: QueryContext): Doc[] {
  return runToEnd(evaluatePipeline(db, stages, source, ctx, UNPACED));
}

/**
 * Runs aggregation stages over `source`, pausing every few milliseconds so the server keeps answering other
 * connections. The collections the stages read (`$lookup`, `$graphLookup`, `$unionWith`) are taken when it starts,
 * as `source` is, so writes that land during a pause are not seen: the pipeline reads one point in time.
 */
export function runPipelinePaced(
  db: Database | undefined,
  stages: Doc[],
  source: Doc[],
  ctx: QueryContext,
): Promise<Doc[]> {
  const pacer = timeSlices();
  return runPaced(evaluatePipeline(db, stages, source, ctx, pacer), pacer);
}

/**
 * Under a case-insensitive collation the leading `$match` stages run through devdb's folding filter (mingo's
 * `$match` ignores collations); `$lookup` sees the database's collections and views.
 */
function* evaluatePipeline(
  db: Database | undefined,
  stages: Doc[],
  input: Doc[],
  ctx: QueryContext,
  pacer: Pacer,
): Paced<Doc[]> {
  let source = input;
  let rest = stages;
  // Leading $match stages run as find filters do: folded under a case-insensitive collation, and a large
  // `$in` answered by a key set (mingo's own $match would be quadratic over it).
  while (rest[0] && isPlainObject(rest[0].$match)) {
    const test = compileFilter(rest[0].$match, ctx);
    source = yield* filterPaced(source, test, pacer);
    rest = rest.slice(1);
  }
  const snapshot = snapshotOf(db, rest);
  rest = rest.map((stage, i) => unionWithPrefiltered(db, stage, ctx, !copiedLater(rest, i)) ?? stage);
  // $lookup etc. may hand foreign documents to later stages that modify them.
  const base = mingoOptions({ ...ctx, collectionResolver: (name) => cloneDoc(snapshot(name)) });
  const options = { ...base, context: Context.from(base.context ?? Context.init(), DEVDB_STAGES) };
  return yield* evaluateStages(rest, source, options, pacer);
}

/** Stages whose output documents are input documents, untouched (or documents of another collection, copied). */
const PASS_THROUGH_STAGES = new Set(['$match', '$limit', '$skip', '$sort', '$unionWith']);

const passesThrough = (stage: Doc) => Object.keys(stage).length === 1 && PASS_THROUGH_STAGES.has(stageName(stage));

/**
 * Whether documents entering the stream at stage `i` are copied later by evaluateStages before anything can
 * modify them: every stage before passes documents on (so nothing has been copied yet), and the next one is a
 * `$group` (which copies what it keeps) or there is none (results still shared are copied at the end).
 */
function copiedLater(stages: Doc[], i: number): boolean {
  const next = stages[i + 1];
  const grouping = next !== undefined && Object.keys(next).length === 1 && isPlainObject(next.$group);
  return stages.slice(0, i).every(passesThrough) && (next === undefined || grouping);
}

/**
 * The stages in segments: a `$group` (paced by groupStage), or any other stage followed by the streaming stages
 * after it, whose output is pulled a document at a time. The stored documents are copied once, by the first
 * segment that could change what it is given (stages such as $addFields shallow-copy and then write nested paths,
 * which would otherwise reach into stored documents): segments that only pass documents on leave that to the
 * next, a `$group` copies its rows instead, and documents still shared at the end are copied then.
 */
function* evaluateStages(
  stages: Doc[],
  source: Doc[],
  options: ReturnType<typeof mingoOptions>,
  pacer: Pacer,
): Paced<Doc[]> {
  let docs = source;
  let copyInput = true;
  let i = 0;
  while (i < stages.length) {
    const stage = stages[i]!;
    if (Object.keys(stage).length === 1 && isPlainObject(stage.$group)) {
      docs = yield* groupStage(docs, stage.$group, options, copyInput, pacer);
      copyInput = false;
      i += 1;
      continue;
    }
    let end = i;
    if (end < stages.length && !STREAMING_STAGES.has(stageName(stages[end]!))) end += 1;
    while (end < stages.length && STREAMING_STAGES.has(stageName(stages[end]!))) end += 1;
    const segment = stages.slice(i, end);
    const passesOn = segment.every(passesThrough);
    // Copied as they are pulled, as mingo's CLONE_INPUT would, by devdb's copy (no cycle bookkeeping per value).
    const input = copyInput && !passesOn ? Lazy(docs).map((doc) => cloneDoc(doc as Doc)) : docs;
    const aggregator = new Aggregator(segment.map(withCompiledExpressions), {
      ...options,
      processingMode: ProcessingMode.CLONE_OFF,
    });
    docs = yield* drain<Doc>(aggregator.stream(input), pacer);
    copyInput &&= passesOn;
    i = end;
  }
  if (copyInput) docs = yield* copied(docs, pacer);
  return docs;
}

function* copied(docs: Doc[], pacer: Pacer): Paced<Doc[]> {
  const out: Doc[] = [];
  for (const doc of docs) {
    out.push(cloneDoc(doc));
    if (pacer.tick()) yield;
  }
  return out;
}

function stageName(stage: Doc): string {
  return Object.keys(stage)[0] ?? '';
}

function* filterPaced(docs: Doc[], test: (doc: Doc) => boolean, pacer: Pacer): Paced<Doc[]> {
  const out: Doc[] = [];
  for (const doc of docs) {
    if (test(doc)) out.push(doc);
    if (pacer.tick()) yield;
  }
  return out;
}

/**
 * The documents of every collection or view the stages may read, taken now: a name given as `from` or `coll`
 * anywhere in them (`$lookup`, `$graphLookup`, `$unionWith`, nested pipelines), or as `$unionWith`'s string.
 * Stored documents are never modified in place, so the arrays stay as they are now. A name missed here is read
 * when asked for.
 */
function snapshotOf(db: Database | undefined, stages: Doc[]): (name: string) => Doc[] {
  const taken = new Map<string, Doc[]>();
  const read = (name: string) => [...(readable(db, name)?.docs.values() ?? [])];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const named = key === 'from' || key === 'coll' || key === '$unionWith';
      if (named && typeof inner === 'string' && !taken.has(inner)) taken.set(inner, read(inner));
      else visit(inner);
    }
  };
  visit(stages);
  return (name) => taken.get(name) ?? read(name);
}

/**
 * A top-level `$unionWith` whose sub-pipeline starts with `$match`, rewritten to carry its input: the documents of
 * the collection that pass that `$match` (narrowed by an index as a find is, tested by the compiled filter, and
 * cloned, unless `copy` is false and nothing else runs on them, so later stages may modify them), followed by the
 * rest of the sub-pipeline. Without this, mingo gets a
 * clone of the whole foreign collection and runs the `$match` itself (quadratic over a large `$in`, and blind to
 * the command's collation). mingo takes an array as `coll` in place of a name. Other forms return undefined.
 */
function unionWithPrefiltered(db: Database | undefined, stage: Doc, ctx: QueryContext, copy: boolean): Doc | undefined {
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
  const pipeline = sub.slice(next);
  // Without stages of its own to run, its documents are copied later if they need to be (copiedLater).
  return { $unionWith: { ...spec, coll: copy || pipeline.length > 0 ? cloneDoc(docs) : docs, pipeline } };
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
