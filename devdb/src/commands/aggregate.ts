import { fail, typeMismatch } from '../errors.js';
import { readable, runPipelinePaced } from '../pipeline.js';
import { optionalNumber, withDefaultCollation } from '../query.js';
import { type Doc, isPlainObject } from '../values.js';
import { runMerge, runOut } from './aggregate-output.js';
import { type CommandContext, type CommandHandler, queryContext } from './context.js';
import { runGeoNear } from './geo-near-stage.js';

/** Stages that write their input to a collection; only allowed last, as in mongod. */
const OUTPUT_STAGES = new Set(['$out', '$merge']);

function stageName(stage: Doc | undefined): string | undefined {
  return stage ? Object.keys(stage)[0] : undefined;
}

/**
 * Evaluated in slices (runPipelinePaced), so other connections are answered while it runs; it reads the
 * collections as they were when it started, and its `$out`/`$merge` writes land at once when it ends.
 */
async function aggregate(cmd: Doc, ctx: CommandContext): Promise<Doc> {
  const target = cmd.aggregate;
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline) || !pipeline.every(isPlainObject)) typeMismatch('pipeline', 'array', pipeline);
  if (cmd.explain === true) fail('CommandNotSupported', 'devdb does not support explain');
  if (!isPlainObject(cmd.cursor)) {
    fail('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  for (const stage of pipeline.slice(0, -1)) {
    const op = stageName(stage);
    if (op && OUTPUT_STAGES.has(op)) fail('Location40601', `${op} can only be the final stage in the pipeline`);
  }
  const last = pipeline[pipeline.length - 1];
  const output = OUTPUT_STAGES.has(stageName(last) ?? '') ? last : undefined;
  let stages: Doc[] = output ? pipeline.slice(0, -1) : pipeline;
  const db = ctx.store.db(ctx.db);
  let source: Doc[] = [];
  let ns = `${ctx.db}.$cmd.aggregate`;
  let qctx = queryContext(cmd);
  if (typeof target === 'string') {
    ns = `${ctx.db}.${target}`;
    const coll = readable(db, target);
    qctx = withDefaultCollation(coll, qctx);
    if (stages[0] && '$geoNear' in stages[0]) {
      source = runGeoNear(stages[0].$geoNear, coll, qctx);
      stages = stages.slice(1);
    } else if (coll) {
      const first = stages[0];
      const match = first && isPlainObject(first.$match) ? first.$match : undefined;
      const narrowed = match && !qctx.collation ? coll.candidates(match) : undefined;
      source = narrowed ?? [...coll.docs.values()];
    }
  } else if (target !== 1) {
    typeMismatch('aggregate', 'string or 1', target);
  } else if (stages[0] && '$listLocalSessions' in stages[0]) {
    // Sessions hold no server state in devdb; the caller's own session is the only one it knows.
    source = isPlainObject(cmd.lsid) ? [{ _id: cmd.lsid, lastUse: new Date() }] : [];
    stages = stages.slice(1);
  }
  const docs = await runPipelinePaced(db, stages, source, qctx);
  if (output) {
    if (stageName(output) === '$out') runOut(output.$out, docs, ctx);
    else runMerge(output.$merge, docs, ctx);
    return ctx.cursors.open(ns, [], 0);
  }
  return ctx.cursors.open(ns, docs, optionalNumber(cmd.cursor, 'batchSize'));
}

export const aggregateCommands: Record<string, CommandHandler> = { aggregate };
