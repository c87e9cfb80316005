import { Long } from 'bson';
import { compare } from 'mingo/util';
import { foldValue, parseCollation } from '../collation.js';
import { typeMismatch } from '../errors.js';
import { MISSING, valuesAtPath } from '../paths.js';
import { readable } from '../pipeline.js';
import { findDocs, matching, optionalDoc, optionalNumber, withDefaultCollation } from '../query.js';
import { type Doc, keyOf } from '../values.js';
import { type CommandContext, type CommandHandler, queryContext, stringField } from './context.js';

function toLong(v: unknown, field: string): Long {
  if (v instanceof Long) return v;
  if (typeof v === 'number' && Number.isInteger(v)) return Long.fromNumber(v);
  if (typeof v === 'bigint') return Long.fromBigInt(v);
  typeMismatch(field, 'long', v);
}

function find(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'find');
  const coll = readable(ctx.store.db(ctx.db), name);
  let limit = optionalNumber(cmd, 'limit') ?? 0;
  let singleBatch = cmd.singleBatch === true;
  if (limit < 0) {
    // Legacy negative limit: "return this many, in one batch".
    limit = -limit;
    singleBatch = true;
  }
  const docs = findDocs(coll, {
    filter: optionalDoc(cmd, 'filter'),
    sort: optionalDoc(cmd, 'sort'),
    projection: optionalDoc(cmd, 'projection'),
    skip: optionalNumber(cmd, 'skip'),
    limit,
    ...queryContext(cmd),
  });
  return ctx.cursors.open(`${ctx.db}.${name}`, docs, optionalNumber(cmd, 'batchSize'), singleBatch);
}

function getMore(cmd: Doc, ctx: CommandContext): Doc {
  const id = toLong(cmd.getMore, 'getMore');
  const collection = stringField(cmd, 'collection');
  return ctx.cursors.getMore(id, `${ctx.db}.${collection}`, optionalNumber(cmd, 'batchSize'));
}

function killCursors(cmd: Doc, ctx: CommandContext): Doc {
  stringField(cmd, 'killCursors');
  const ids = cmd.cursors;
  if (!Array.isArray(ids)) typeMismatch('cursors', 'array', ids);
  const result = ctx.cursors.kill(ids.map((id) => toLong(id, 'cursors')));
  return { ...result, cursorsAlive: [], cursorsUnknown: [] };
}

function count(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'count');
  const coll = readable(ctx.store.db(ctx.db), name);
  const query = optionalDoc(cmd, 'query');
  let n = query && Object.keys(query).length ? matching(coll, query, queryContext(cmd)).length : (coll?.docs.size ?? 0);
  const skip = optionalNumber(cmd, 'skip') ?? 0;
  const limit = Math.abs(optionalNumber(cmd, 'limit') ?? 0);
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return { n };
}

function distinct(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'distinct');
  const key = stringField(cmd, 'key');
  const coll = readable(ctx.store.db(ctx.db), name);
  const qctx = withDefaultCollation(coll, queryContext(cmd));
  const strength = parseCollation(qctx.collation)?.foldStrength;
  const seen = new Map<string, unknown>();
  for (const doc of matching(coll, optionalDoc(cmd, 'query'), qctx)) {
    for (const v of valuesAtPath(doc, key)) {
      if (v === MISSING || v === undefined) continue;
      // Under a case-insensitive collation the first spelling met stands for all of them.
      const k = keyOf(strength ? foldValue(v, strength) : v);
      if (!seen.has(k)) seen.set(k, v);
    }
  }
  const order = strength
    ? (a: unknown, b: unknown) => compare(foldValue(a, strength), foldValue(b, strength))
    : compare;
  return { values: [...seen.values()].sort(order) };
}

export const readCommands: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
};
