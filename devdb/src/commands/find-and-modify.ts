import { parseArrayFilters } from '../array-filters.js';
import { fail } from '../errors.js';
import { findDocs, optionalDoc, projectDoc } from '../query.js';
import { applyUpdate, type UpdateOptions, upsertDocument } from '../update.js';
import type { Doc } from '../values.js';
import { type CommandContext, type CommandHandler, queryContext, stringField } from './context.js';

/**
 * Errors (including E11000) are thrown, so the dispatcher reports them as a
 * top-level `ok: 0` reply, which is how mongod answers findAndModify.
 */
function findAndModify(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, Object.keys(cmd)[0]!);
  const query = optionalDoc(cmd, 'query') ?? {};
  const remove = cmd.remove === true;
  const update = cmd.update;
  const returnNew = cmd.new === true;
  const upsert = cmd.upsert === true;
  if (remove && update !== undefined) fail('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && update === undefined) fail('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && (upsert || returnNew))
    fail('FailedToParse', 'Cannot specify both upsert=true and remove=true, or new=true and remove=true');
  // mongod refuses the option itself where nothing would read it, before parsing the filters.
  if (remove && cmd.arrayFilters != null) fail('FailedToParse', 'Cannot specify arrayFilters and remove=true');
  if (Array.isArray(update) && cmd.arrayFilters != null)
    fail('FailedToParse', 'Cannot specify arrayFilters and a pipeline update');

  const opts: UpdateOptions = {
    ...queryContext(cmd),
    arrayFilters: parseArrayFilters(cmd.arrayFilters, update),
    filter: query,
  };
  const fields = optionalDoc(cmd, 'fields');
  const project = (doc: Doc): Doc => projectDoc(doc, fields, opts);
  let coll = ctx.store.db(ctx.db)?.writableCollection(name);
  const target = findDocs(coll, { ...opts, filter: query, sort: optionalDoc(cmd, 'sort'), limit: 1 })[0];

  if (remove) {
    if (!target) return { lastErrorObject: { n: 0 }, value: null };
    coll!.remove(target);
    return { lastErrorObject: { n: 1 }, value: project(target) };
  }
  if (target) {
    const next = applyUpdate(target, update, opts);
    if (next) coll!.replace(target, next);
    const value = returnNew ? (next ?? target) : target;
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(value) };
  }
  if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
  coll ??= ctx.store.ensureDb(ctx.db).ensureCollection(name);
  const doc = coll.insert(upsertDocument(query, update, opts));
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
    value: returnNew ? project(doc) : null,
  };
}

export const findAndModifyCommands: Record<string, CommandHandler> = {
  findAndModify,
  findandmodify: findAndModify,
};
