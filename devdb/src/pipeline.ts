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
