import { Aggregator, Context, ProcessingMode } from 'mingo';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { cloneDeep, HashMap } from 'mingo/util';
import type { Paced, Pacer } from './pacing.js';
import type { Doc } from './values.js';

/** Documents handed to mingo's `$group` at once: whole groups, at least this many documents. */
const GROUPS_BATCH_DOCS = 2048;

/**
 * `$group`, paced: the documents are sorted into their groups (by mingo's own key evaluation and key equality),
 * then mingo's `$group` runs over batches of whole groups in first-seen order, which yields exactly the rows (and
 * their order) it yields over all the documents at once.
 */
export function* groupStage(
  docs: Doc[],
  spec: Doc,
  options: Partial<Options>,
  copyInput: boolean,
  pacer: Pacer,
): Paced<Doc[]> {
  const stage = [{ $group: spec }];
  const run = (batch: Doc[]) =>
    new Aggregator(stage, { ...options, processingMode: ProcessingMode.CLONE_OFF }).run<Doc>(batch);
  // mingo's $group checks its spec before it reads a document.
  if (!('_id' in spec) || docs.length === 0) return run([]);
  const evaluation = pipelineOptions(options);
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
    for (const row of run(batch)) out.push(row);
    batch = [];
    yield;
  }
  if (batch.length > 0) for (const row of run(batch)) out.push(row);
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
