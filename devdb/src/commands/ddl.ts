import { Query } from 'mingo';
import { fail } from '../errors.js';
import { ID_INDEX_SPEC } from '../indexes.js';
import { optionalDoc, optionalNumber } from '../query.js';
import { type Doc, isPlainObject, keyOf } from '../values.js';
import { type CommandContext, type CommandHandler, commandOptions, stringField } from './context.js';

function create(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'create');
  const options = commandOptions(cmd);
  if ('viewOn' in options || 'pipeline' in options) fail('CommandNotSupported', 'devdb does not support views');
  const existing = ctx.store.db(ctx.db)?.collection(name);
  if (existing) {
    // mongod treats a repeated create with identical options as success.
    if (keyOf(existing.options) === keyOf(options)) return {};
    fail('NamespaceExists', `Collection ${existing.ns} already exists.`);
  }
  ctx.store.ensureDb(ctx.db).createCollection(name, options);
  return {};
}

function drop(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'drop');
  const dropped = ctx.store.db(ctx.db)?.dropCollection(name);
  if (!dropped) return {};
  return { ns: dropped.ns, nIndexesWas: dropped.indexes.size + 1 };
}

function dropDatabase(_cmd: Doc, ctx: CommandContext): Doc {
  ctx.store.dropDatabase(ctx.db);
  return { dropped: ctx.db };
}

function listCollections(cmd: Doc, ctx: CommandContext): Doc {
  const filter = optionalDoc(cmd, 'filter');
  const nameOnly = cmd.nameOnly === true;
  const db = ctx.store.db(ctx.db);
  let entries: Doc[] = [...(db?.collections.values() ?? [])].map((coll) => ({
    name: coll.name,
    type: 'collection',
    options: coll.options,
    info: { readOnly: false },
    idIndex: ID_INDEX_SPEC,
  }));
  if (filter && Object.keys(filter).length) {
    const q = new Query(filter, {});
    entries = entries.filter((e) => q.test(e));
  }
  if (nameOnly) entries = entries.map((e) => ({ name: e.name, type: e.type }));
  const batchSize = isPlainObject(cmd.cursor) ? optionalNumber(cmd.cursor, 'batchSize') : undefined;
  return ctx.cursors.open(`${ctx.db}.$cmd.listCollections`, entries, batchSize);
}

export const ddlCommands: Record<string, CommandHandler> = {
  create,
  drop,
  dropDatabase,
  listCollections,
};
