import { Aggregator, ProcessingMode } from 'mingo';
import { fail, typeMismatch } from '../errors.js';
import { mingoOptions, optionalNumber } from '../query.js';
import { cloneDoc, type Doc, isPlainObject } from '../values.js';
import { type CommandContext, type CommandHandler, queryContext } from './context.js';
import { runGeoNear } from './geo-near-stage.js';

/** Stages that write to collections would bypass journaling and unique indexes. */
const UNSUPPORTED_STAGES = new Set(['$out', '$merge']);

function aggregate(cmd: Doc, ctx: CommandContext): Doc {
  const target = cmd.aggregate;
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline) || !pipeline.every(isPlainObject)) typeMismatch('pipeline', 'array', pipeline);
  if (cmd.explain === true) fail('CommandNotSupported', 'devdb does not support explain');
  if (!isPlainObject(cmd.cursor)) {
    fail('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0];
    if (op && UNSUPPORTED_STAGES.has(op)) fail('CommandNotSupported', `devdb does not support the ${op} stage`);
  }
  const db = ctx.store.db(ctx.db);
  let source: Doc[] = [];
  let stages: Doc[] = pipeline;
  let ns = `${ctx.db}.$cmd.aggregate`;
  if (typeof target === 'string') {
    ns = `${ctx.db}.${target}`;
    const coll = db?.collection(target);
    if (pipeline[0] && '$geoNear' in pipeline[0]) {
      source = runGeoNear(pipeline[0].$geoNear, coll, queryContext(cmd));
      stages = pipeline.slice(1);
    } else if (coll) {
      const first = pipeline[0];
      const match = first && isPlainObject(first.$match) ? first.$match : undefined;
      const narrowed = match && !isPlainObject(cmd.collation) ? coll.candidates(match) : undefined;
      source = narrowed ?? [...coll.docs.values()];
    }
  } else if (target !== 1) {
    typeMismatch('aggregate', 'string or 1', target);
  }
  const options = mingoOptions({
    ...queryContext(cmd),
    // $lookup etc. may hand foreign documents to later stages that modify them.
    collectionResolver: (name) => cloneDoc([...(db?.collection(name)?.docs.values() ?? [])]),
  });
  // Stages such as $addFields shallow-copy and then write nested paths, which
  // would otherwise reach into stored documents.
  const aggregator = new Aggregator(stages, { ...options, processingMode: ProcessingMode.CLONE_INPUT });
  const docs = aggregator.run<Doc>(source);
  return ctx.cursors.open(ns, docs, optionalNumber(cmd.cursor, 'batchSize'));
}

export const aggregateCommands: Record<string, CommandHandler> = { aggregate };
