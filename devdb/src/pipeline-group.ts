import { Aggregator, Context, ProcessingMode } from 'mingo';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { compare, isNil, isNumber, isOperator } from 'mingo/util';
import { compileExpression } from './expressions.js';
import { KeyedEntries } from './group-keys.js';
import type { Paced, Pacer } from './pacing.js';
import { cloneDoc, type Doc, isPlainObject } from './values.js';

/** Documents handed to mingo's `$group` at once (accumulators devdb does not run itself): whole groups. */
const GROUPS_BATCH_DOCS = 2048;

/** One accumulator of one group: sees the group's documents in order, then gives its value. */
interface Accumulation {
  add(doc: Doc): void;
  value(): unknown;
}

/** Evaluates an expression of the stage against a document (compiled once per expression). */
type Evaluate = (expr: unknown) => (doc: Doc) => unknown;

/** A value per document: the accumulator's argument, `?? null` as mingo's `$push` computes it. */
type Each = (doc: Doc) => unknown;

// Accumulations are classes rather than object literals: one is made per group, and a literal's methods are
// fresh closures (named one by one under tsx) for every group.

class CountEach implements Accumulation {
  n = 0;
  constructor(readonly by: number) {}
  add() {
    this.n += 1;
  }
  value() {
    return this.n * this.by;
  }
}

class SumEach implements Accumulation {
  sum = 0;
  constructor(readonly each: Each) {}
  add(doc: Doc) {
    const v = this.each(doc);
    if (isNumber(v)) this.sum += v;
  }
  value() {
    return this.sum;
  }
}

class AvgEach implements Accumulation {
  sum = 0;
  n = 0;
  constructor(readonly each: Each) {}
  add(doc: Doc) {
    const v = this.each(doc);
    if (isNumber(v)) {
      this.sum += v;
      this.n += 1;
    }
  }
  value() {
    return this.n === 0 ? null : this.sum / this.n;
  }
}

class PushEach implements Accumulation {
  readonly values: unknown[] = [];
  constructor(readonly each: Each) {}
  add(doc: Doc) {
    this.values.push(this.each(doc));
  }
  value() {
    return this.values;
  }
}

class MinEach implements Accumulation {
  min: unknown = null;
  seen = false;
  constructor(readonly each: Each) {}
  add(doc: Doc) {
    const v = this.each(doc);
    if (isNil(v)) return;
    if (!this.seen || compare(v, this.min) < 0) this.min = v;
    this.seen = true;
  }
  value() {
    return this.min;
  }
}

class MaxEach implements Accumulation {
  max: unknown = null;
  seen = false;
  constructor(readonly each: Each) {}
  add(doc: Doc) {
    const v = this.each(doc);
    if (!this.seen || compare(v, this.max) >= 0) this.max = v;
    this.seen = true;
  }
  value() {
    return isNil(this.max) ? null : this.max;
  }
}

/** `$first`/`$last`: evaluated on that one document only, as mingo does. */
class PickEach implements Accumulation {
  chosen: Doc | undefined;
  constructor(
    readonly compiled: (doc: Doc) => unknown,
    readonly last: boolean,
  ) {}
  add(doc: Doc) {
    if (this.last || this.chosen === undefined) this.chosen = doc;
  }
  value() {
    return this.compiled(this.chosen!) ?? null;
  }
}

/**
 * The accumulators devdb runs a document at a time, each giving exactly what mingo's gives over the whole group
 * (mingo evaluates `$push`'s argument per document, `?? null`, and derives `$sum`, `$avg`, `$min` and `$max` from
 * that list: numbers only for the sums, non-null values sorted by `compare` for `$min`, all values for `$max`, a
 * stable sort keeping the first of equal minima and the last of equal maxima). Undefined for any other.
 */
function accumulation(op: string, arg: unknown, evaluate: Evaluate): (() => Accumulation) | undefined {
  if (op !== '$count' && isNil(arg)) return undefined;
  const compiled = evaluate(arg);
  const each: Each = (doc) => compiled(doc) ?? null;
  switch (op) {
    case '$sum':
      if (isNumber(arg)) return () => new CountEach(arg);
      return () => new SumEach(each);
    case '$avg':
      return () => new AvgEach(each);
    case '$count':
      return () => new CountEach(1);
    case '$push':
      return () => new PushEach(each);
    case '$min':
      return () => new MinEach(each);
    case '$max':
      return () => new MaxEach(each);
    case '$first':
    case '$last':
      return () => new PickEach(compiled, op === '$last');
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
  const freshKeys = isFieldsExpression(spec._id);
  const groups = new KeyedEntries<Accumulation[]>(freshKeys);
  const pushed = fields.map((field) => Object.keys(spec[field] as Doc)[0] === '$push');
  for (const doc of docs) {
    const key = groupKey(doc) ?? null;
    let accumulations = groups.get(key);
    if (!accumulations) {
      accumulations = factories.map((make) => make!());
      groups.add(key, accumulations);
    }
    for (const acc of accumulations) acc.add(doc);
    if (pacer.tick()) yield;
  }
  const rows: Doc[] = [];
  for (const [key, accumulations] of groups.entries()) {
    const row: Doc = { _id: key };
    fields.forEach((field, i) => {
      row[field] = accumulations[i]!.value();
    });
    rows.push(copyInput && !ownsAll(row, fields, pushed, freshKeys) ? cloneDoc(row) : row);
    if (pacer.tick()) yield;
  }
  return rows;
}

/** A value no stage modifies in place: not a document, not an array. */
const unshared = (v: unknown) => !Array.isArray(v) && !isPlainObject(v);

/**
 * Whether a row holds nothing a stored document may also hold, so it need not be copied: every value is a scalar,
 * except the arrays `$push` built and a key document `{a: ..., b: ...}` built per document, themselves of scalars.
 */
function ownsAll(row: Doc, fields: string[], pushed: boolean[], freshKey: boolean): boolean {
  const key = row._id;
  if (!unshared(key) && !(freshKey && isPlainObject(key) && Object.values(key).every(unshared))) return false;
  for (let i = 0; i < fields.length; i++) {
    const value = row[fields[i]!];
    if (unshared(value)) continue;
    if (!pushed[i] || !Array.isArray(value) || !value.every(unshared)) return false;
  }
  return true;
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
  const groups = new KeyedEntries<Doc[]>(isFieldsExpression(spec._id));
  for (const input of docs) {
    const doc = copyInput ? cloneDoc(input) : input;
    const key = evalExpr(doc, spec._id, evaluation) ?? null;
    const members = groups.get(key);
    if (members) members.push(doc);
    else groups.add(key, [doc]);
    if (pacer.tick()) yield;
  }
  const out: Doc[] = [];
  let batch: Doc[] = [];
  for (const [, members] of groups.entries()) {
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

/** An `_id` such as `{index: ..., userId: '$userId'}`: its values are documents with the fields in that order. */
function isFieldsExpression(id: unknown): boolean {
  const first = isPlainObject(id) ? Object.keys(id)[0] : undefined;
  return first !== undefined && !isOperator(first);
}
