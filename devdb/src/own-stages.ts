import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { isEmpty, isOperator } from 'mingo/util';
import { COMPILED_OPERATOR, compiledForStage } from './expressions.js';
import { compileQuery } from './filter-compile.js';
import { lookupStage } from './lookup-stage.js';
import { OWN_STAGE_OPERATOR, type Run } from './own-stage-operator.js';
import { plainName } from './paths.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * devdb's own versions of the per-document stages the dashboards and experiment results run, for their common
 * forms: each gives what mingo's stage gives (values, key order, shared or copied objects, errors), without mingo's
 * per-document dispatch, option copies and path walking. Any other form stays mingo's stage.
 */

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
