import { Aggregator, Context, ProcessingMode } from 'mingo';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { cloneDeep, compare, HashMap, isNil, isNumber } from 'mingo/util';
import { compileExpression } from './expressions.js';
import type { Paced, Pacer } from './pacing.js';
import type { Doc } from './values.js';

/** Documents handed to mingo's `$group` at once (accumulators devdb does not run itself): whole groups. */
const GROUPS_BATCH_DOCS = 2048;

/** One accumulator of one group: sees the group's documents in order, then gives its value. */
interface Accumulation {
  add(doc: Doc): void;
  value(): unknown;
}

/** Evaluates an expression of the stage against a document (compiled once per expression). */
type Evaluate = (expr: unknown) => (doc: Doc) => unknown;

/**
 * The accumulators devdb runs a document at a time, each giving exactly what mingo's gives over the whole group
 * (mingo evaluates `$push`'s argument per document, `?? null`, and derives `$sum`, `$avg`, `$min` and `$max` from
 * that list: numbers only for the sums, non-null values sorted by `compare` for `$min`, all values for `$max`, a
 * stable sort keeping the first of equal minima and the last of equal maxima). Undefined for any other.
 */
function accumulation(op: string, arg: unknown, evaluate: Evaluate): (() => Accumulation) | undefined {
  if (op !== '$count' && isNil(arg)) return undefined;
  const compiled = evaluate(arg);
  const each = (doc: Doc) => compiled(doc) ?? null;
  switch (op) {
    case '$sum':
      if (isNumber(arg)) {
        return () => {
          let n = 0;
          return {
            add() {
              n += 1;
            },
            value: () => n * arg,
          };
        };
      }
      return () => {
        let sum = 0;
        return {
          add(doc) {
            const v = each(doc);
            if (isNumber(v)) sum += v;
          },
          value: () => sum,
        };
      };
    case '$avg':
      return () => {
        let sum = 0;
        let n = 0;
        return {
          add(doc) {
            const v = each(doc);
            if (isNumber(v)) {
              sum += v;
              n += 1;
            }
          },
          value: () => (n === 0 ? null : sum / n),
        };
      };
    case '$count':
      return () => {
        let n = 0;
        return {
          add() {
            n += 1;
          },
          value: () => n,
        };
      };
    case '$push':
      return () => {
        const values: unknown[] = [];
        return { add: (doc) => void values.push(each(doc)), value: () => values };
      };
    case '$min':
      return () => {
        let min: unknown = null;
        let seen = false;
        return {
          add(doc) {
            const v = each(doc);
            if (isNil(v)) return;
            if (!seen || compare(v, min) < 0) min = v;
            seen = true;
          },
          value: () => min,
        };
      };
    case '$max':
      return () => {
        let max: unknown = null;
        let seen = false;
        return {
          add(doc) {
            const v = each(doc);
            if (!seen || compare(v, max) >= 0) max = v;
            seen = true;
          },
          value: () => (isNil(max) ? null : max),
        };
      };
    case '$first':
    case '$last':
      // Evaluated on that one document only, as mingo does.
      return () => {
        let chosen: Doc | undefined;
        return {
          add(doc) {
            if (op === '$last' || chosen === undefined) chosen = doc;
          },
          value: () => compiled(chosen!) ?? null,
        };
      };
    default:
      return undefined;
  }
}

/**
 * `$group`, a document at a time so it can pause: the key by mingo's own evaluation and key equality (groups in
 * first-seen order, as mingo's), the accumulators above. A group using any other accumulator goes through mingo's
 * `$group` over batches of whole groups, which yields exactly the rows it yields over all the documents at once.
 * With `copyInput` the rows are copied rather than the documents: the same values, fewer copies.
 */
export function* groupStage(
  docs: Doc[],
  spec: Doc,
  options: Partial<Options>,
  copyInput: boolean,
  pacer: Pacer,
): Paced<Doc[]> {
  const fields = Object.keys(spec).filter((field) => field !== '_id');
  // mingo's $group checks its spec before it reads a document.
  if (!('_id' in spec) || docs.length === 0) return mingoGroup(docs, spec, options);
  const evaluation = pipelineOptions(options);
  const evaluate: Evaluate = (expr) => compileExpression(expr, evaluation);
  const factories = fields.map((field) => {
    const acc = spec[field];
    const ops = acc !== null && typeof acc === 'object' ? Object.keys(acc) : [];
    return ops.length === 1 ? accumulation(ops[0]!, (acc as Doc)[ops[0]!], evaluate) : undefined;
  });
  if (!factories.every((make) => make !== undefined)) {
    return yield* mingoGroupPaced(docs, spec, options, evaluation, copyInput, pacer);
  }
  const groupKey = evaluate(spec._id);
  const groups = HashMap.init<unknown, Accumulation[]>();
  for (const doc of docs) {
    const key = groupKey(doc) ?? null;
    let accumulations = groups.get(key);
    if (!accumulations) {
      accumulations = factories.map((make) => make!());
      groups.set(key, accumulations);
    }
    for (const acc of accumulations) acc.add(doc);
    if (pacer.tick()) yield;
  }
  const rows: Doc[] = [];
  for (const [key, accumulations] of groups) {
    const row: Doc = { _id: key };
    fields.forEach((field, i) => {
      row[field] = accumulations[i]!.value();
    });
    rows.push(copyInput ? (cloneDeep(row) as Doc) : row);
    if (pacer.tick()) yield;
  }
  return rows;
}

function mingoGroup(docs: Doc[], spec: Doc, options: Partial<Options>): Doc[] {
  return new Aggregator([{ $group: spec }], { ...options, processingMode: ProcessingMode.CLONE_OFF }).run<Doc>(docs);
}

/** Documents sorted into their groups, then mingo's `$group` over batches of whole groups in first-seen order. */
function* mingoGroupPaced(
  docs: Doc[],
  spec: Doc,
  options: Partial<Options>,
  evaluation: Options,
  copyInput: boolean,
  pacer: Pacer,
): Paced<Doc[]> {
  const groups = HashMap.init<unknown, Doc[]>();
  for (const input of docs) {
    const doc = copyInput ? (cloneDeep(input) as Doc) : input;
    const key = evalExpr(doc, spec._id, evaluation) ?? null;
    const members = groups.get(key);
    if (members) members.push(doc);
    else groups.set(key, [doc]);
    if (pacer.tick()) yield;
  }
  const out: Doc[] = [];
  let batch: Doc[] = [];
  for (const members of groups.values()) {
    for (const doc of members) batch.push(doc);
    if (batch.length < GROUPS_BATCH_DOCS) continue;
    for (const row of mingoGroup(batch, spec, options)) out.push(row);
    batch = [];
    yield;
  }
  if (batch.length > 0) for (const row of mingoGroup(batch, spec, options)) out.push(row);
  return out;
}

/**
 * The options object mingo's own stages evaluate with (every operator registered, devdb's added), as an
 * Aggregator builds it: mingo does not export its constructor, so a stage of ours receives it.
 */
function pipelineOptions(options: Partial<Options>): Options {
  let captured: Options | undefined;
  const capture = (coll: unknown, _expr: unknown, built: Options) => {
    captured = built;
    return coll;
  };
  const context = Context.from(
    options.context ?? Context.init(),
    Context.init({ pipeline: { $devdbOptions: capture } } as unknown as Parameters<typeof Context.init>[0]),
  );
  new Aggregator([{ $devdbOptions: {} }], { ...options, context }).stream([]);
  return captured!;
}
