import { Query } from 'mingo';
import type { CollationSpec, Options, SortSpec } from 'mingo/types';
import { foldFilter, foldValue, parseCollation } from './collation.js';
import type { Collection } from './collection.js';
import { fail } from './errors.js';
import { hasPlainTest, plainTest } from './field-tests.js';
import { compileQuery } from './filter-compile.js';
import { firstSorted } from './first-sorted.js';
import { assertNearIndex, extractNear, nearest } from './geo-near.js';
import { GEO_CONTEXT } from './geo-operators.js';
import { type Doc, isPlainObject } from './values.js';

export interface QueryContext {
  collation?: Doc;
  variables?: Doc;
  collectionResolver?: (name: string) => Doc[];
}

export function mingoOptions(ctx: QueryContext = {}): Partial<Options> {
  return {
    context: GEO_CONTEXT,
    ...(sortCollation(ctx.collation) ? { collation: sortCollation(ctx.collation) } : {}),
    ...(ctx.variables ? { variables: ctx.variables } : {}),
    ...(ctx.collectionResolver ? { collectionResolver: ctx.collectionResolver } : {}),
  };
}

function sortCollation(raw: Doc | undefined): CollationSpec | undefined {
  return parseCollation(raw)?.sort;
}

/** A command without a collation uses the collection's default one, as in mongod. */
export function withDefaultCollation<T extends QueryContext>(coll: Collection | undefined, ctx: T): T {
  if (ctx.collation || !coll || !isPlainObject(coll.options.collation)) return ctx;
  return { ...ctx, collation: coll.options.collation };
}

export function optionalDoc(cmd: Doc, field: string): Doc | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) fail('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'object'`);
  return v;
}

export function optionalNumber(cmd: Doc, field: string): number | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  const n =
    typeof v === 'number'
      ? v
      : typeof v === 'object' && 'toNumber' in v
        ? (v as { toNumber(): number }).toNumber()
        : NaN;
  if (!Number.isFinite(n)) fail('TypeMismatch', `BSON field '${field}' is the wrong type, expected a number`);
  return n;
}

export function sortSpec(sort: Doc | undefined): SortSpec | undefined {
  if (!sort || Object.keys(sort).length === 0) return undefined;
  const out: SortSpec = {};
  for (const [field, dir] of Object.entries(sort)) {
    if (typeof dir !== 'number' || dir === 0)
      fail('BadValue', `$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    out[field] = dir > 0 ? 1 : -1;
  }
  return out;
}

export function compileFilter(filter: Doc | undefined, ctx: QueryContext = {}): (doc: Doc) => boolean {
  if (!filter || Object.keys(filter).length === 0) return () => true;
  const strength = parseCollation(ctx.collation)?.foldStrength;
  if (strength) {
    // Case-insensitive collations: compare folded strings on both sides.
    const folded = new Query(foldFilter(filter, strength) as Doc, mingoOptions(ctx));
    return (doc) => folded.test(foldValue(doc, strength) as Doc);
  }
  const plain = Object.keys(filter).filter((name) => hasPlainTest(name, filter[name], ctx.collation !== undefined));
  if (plain.length) {
    // Fields a plain comparison answers (ids, `$in` batches, pager ranges): mingo runs only on the rest.
    const tests = plain.map((name) => plainTest(name, filter[name], mingoOptions(ctx)));
    const rest = Object.fromEntries(Object.entries(filter).filter(([name]) => !plain.includes(name)));
    const others = compileFilter(rest, ctx);
    return (doc) => tests.every((test) => test(doc)) && others(doc);
  }
  return compileQuery(filter, mingoOptions(ctx));
}

/** Documents matching `filter`, narrowed through an index when the filter allows it. */
export function matching(coll: Collection | undefined, filter: Doc | undefined, context: QueryContext = {}): Doc[] {
  if (!coll) return [];
  const ctx = withDefaultCollation(coll, context);
  // Index keys are exact values; a collation may match values they don't.
  const narrowed = filter && !ctx.collation ? coll.candidates(filter) : undefined;
  const source = narrowed ?? [...coll.docs.values()];
  const test = compileFilter(filter, ctx);
  return source.filter(test);
}

export interface FindSpec extends QueryContext {
  filter?: Doc;
  sort?: Doc;
  projection?: Doc;
  skip?: number;
  limit?: number;
}

export function findDocs(coll: Collection | undefined, findSpec: FindSpec): Doc[] {
  const spec = withDefaultCollation(coll, findSpec);
  const { near, rest } = extractNear(spec.filter);
  let docs = matching(coll, rest, spec);
  if (near) {
    if (coll) assertNearIndex(coll, coll.ns, near);
    // Nearest first, as mongod returns $near results; an explicit sort below overrides it.
    docs = nearest(docs, near).map((hit) => hit.doc);
  }
  const sort = sortSpec(spec.sort);
  const projection = spec.projection && Object.keys(spec.projection).length ? spec.projection : undefined;
  const skip = spec.skip ?? 0;
  const limit = spec.limit ?? 0;
  if (!sort && !projection) {
    if (skip || limit) docs = docs.slice(skip, limit ? skip + limit : undefined);
    return docs;
  }
  // A page sorted on an ObjectId or Date field: only the documents that can be on it go to mingo's sort.
  if (sort && limit > 0) docs = firstSorted(docs, sort, skip + limit) ?? docs;
  // The filter already ran; mingo only sorts, pages and projects here.
  const cursor = new Query({}, mingoOptions(spec)).find<Doc>(docs, projection ?? {});
  if (sort) cursor.sort(sort);
  if (skip) cursor.skip(skip);
  if (limit) cursor.limit(limit);
  return cursor.all();
}

/** Applies a find-style projection to a single document. */
export function projectDoc(doc: Doc, projection: Doc | undefined, ctx: QueryContext = {}): Doc {
  if (!projection || Object.keys(projection).length === 0) return doc;
  return new Query({}, mingoOptions(ctx)).find<Doc>([doc], projection).all()[0]!;
}
