import { parseArrayFilters } from '../array-filters.js';
import type { Collection } from '../collection.js';
import { DevDbError, ErrorCodes, fail } from '../errors.js';
import { matching } from '../query.js';
import { applyUpdate, classifyUpdate, type UpdateOptions, upsertDocument } from '../update.js';
import { type Doc, isPlainObject } from '../values.js';
import { type CommandContext, type CommandHandler, docArray, queryContext, stringField } from './context.js';

const MAX_WRITE_BATCH = 100000;

/** A per-statement failure in the shape the driver turns into a WriteError. */
function writeError(index: number, err: unknown): Doc {
  if (err instanceof DevDbError) return { index, code: err.code, errmsg: err.message, ...err.extra };
  return { index, code: ErrorCodes.BadValue, errmsg: err instanceof Error ? err.message : String(err) };
}

function batch(cmd: Doc, field: string): Doc[] {
  const items = docArray(cmd, field);
  if (items.length === 0 || items.length > MAX_WRITE_BATCH) {
    fail(
      'InvalidLength',
      `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH}. Got ${items.length} operations.`,
    );
  }
  return items;
}

/**
 * Runs each statement, collecting failures. Ordered batches stop at the first
 * failure; unordered ones carry on, as mongod does.
 */
function runStatements(items: Doc[], ordered: boolean, run: (item: Doc, index: number) => void): Doc[] {
  const writeErrors: Doc[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      run(items[i]!, i);
    } catch (err) {
      writeErrors.push(writeError(i, err));
      if (ordered) break;
    }
  }
  return writeErrors;
}

function withErrors(reply: Doc, writeErrors: Doc[]): Doc {
  return writeErrors.length ? { ...reply, writeErrors } : reply;
}

function insert(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'insert');
  const documents = batch(cmd, 'documents');
  const coll = ctx.store.ensureDb(ctx.db).ensureCollection(name);
  let n = 0;
  const writeErrors = runStatements(documents, cmd.ordered !== false, (doc) => {
    coll.insert(doc);
    n++;
  });
  return withErrors({ n }, writeErrors);
}

function statementFilter(stmt: Doc): Doc {
  const q = stmt.q ?? {};
  if (!isPlainObject(q)) fail('TypeMismatch', "BSON field 'q' is the wrong type, expected type 'object'");
  return q;
}

function update(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'update');
  const statements = batch(cmd, 'updates');
  // A 7.0 server's update statements have no `sort` (8.0 added it): strict parsing refuses the field.
  if (statements.some((stmt) => 'sort' in stmt)) {
    fail('Location40415', "BSON field 'update.updates.sort' is an unknown field.");
  }
  const cmdContext = queryContext(cmd);
  let coll: Collection | undefined = ctx.store.db(ctx.db)?.writableCollection(name);
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors = runStatements(statements, cmd.ordered !== false, (stmt, index) => {
    const filter = statementFilter(stmt);
    const multi = stmt.multi === true;
    if (multi && classifyUpdate(stmt.u) === 'replacement') {
      fail('FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const opts: UpdateOptions = {
      ...cmdContext,
      ...(isPlainObject(stmt.collation) ? { collation: stmt.collation } : {}),
      arrayFilters: parseArrayFilters(stmt.arrayFilters, stmt.u),
      filter,
    };
    let targets = matching(coll, filter, opts);
    if (!multi && targets.length > 1) targets = targets.slice(0, 1);
    if (targets.length === 0) {
      if (stmt.upsert !== true) return;
      coll ??= ctx.store.ensureDb(ctx.db).ensureCollection(name);
      const doc = coll.insert(upsertDocument(filter, stmt.u, opts));
      upserted.push({ index, _id: doc._id });
      n++;
      return;
    }
    for (const doc of targets) {
      n++;
      const next = applyUpdate(doc, stmt.u, opts);
      if (next) {
        coll!.replace(doc, next);
        nModified++;
      }
    }
  });
  return withErrors({ n, nModified, ...(upserted.length ? { upserted } : {}) }, writeErrors);
}

function remove(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'delete');
  const statements = batch(cmd, 'deletes');
  const coll = ctx.store.db(ctx.db)?.writableCollection(name);
  const cmdContext = queryContext(cmd);
  let n = 0;
  const writeErrors = runStatements(statements, cmd.ordered !== false, (stmt) => {
    const limit = stmt.limit ?? 0;
    if (limit !== 0 && limit !== 1)
      fail('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${String(limit)}`);
    const opts = { ...cmdContext, ...(isPlainObject(stmt.collation) ? { collation: stmt.collation } : {}) };
    let targets = matching(coll, statementFilter(stmt), opts);
    if (limit === 1) targets = targets.slice(0, 1);
    for (const doc of targets) {
      coll!.remove(doc);
      n++;
    }
  });
  return withErrors({ n }, writeErrors);
}

export const writeCommands: Record<string, CommandHandler> = {
  insert,
  update,
  delete: remove,
};
