import { Query } from 'mingo';
import { parseCollation } from '../collation.js';
import { fail, typeMismatch } from '../errors.js';
import { ID_INDEX_SPEC } from '../indexes.js';
import { optionalDoc, optionalNumber } from '../query.js';
import { type Doc, isPlainObject, keyOf } from '../values.js';
import { type CommandContext, type CommandHandler, commandOptions, stringField } from './context.js';

function create(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'create');
  const options = commandOptions(cmd);
  parseCollation(options.collation);
  if ('viewOn' in options || 'pipeline' in options) validateView(options);
  const existing = ctx.store.db(ctx.db)?.collection(name);
  if (existing) {
    // mongod treats a repeated create with identical options as success.
    if (keyOf(existing.options) === keyOf(options)) return {};
    fail('NamespaceExists', `Collection ${existing.ns} already exists.`);
  }
  ctx.store.ensureDb(ctx.db).createCollection(name, options);
  return {};
}

/** `create` with `viewOn` (and optionally `pipeline`) defines a read-only view. */
function validateView(options: Doc): void {
  if (typeof options.viewOn !== 'string' || options.viewOn === '') {
    fail('BadValue', "'viewOn' must be specified when 'pipeline' is and must be a non-empty string");
  }
  options.pipeline ??= [];
  const pipeline = options.pipeline;
  if (!Array.isArray(pipeline) || !pipeline.every(isPlainObject)) typeMismatch('pipeline', 'array', pipeline);
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0];
    if (op === '$out' || op === '$merge') fail('OptionNotSupportedOnView', `${op} cannot be used in a view definition`);
  }
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
  let entries: Doc[] = [...(db?.collections.values() ?? [])].map((coll) =>
    coll.isView
      ? { name: coll.name, type: 'view', options: coll.options, info: { readOnly: true } }
      : {
          name: coll.name,
          type: 'collection',
          options: coll.options,
          info: { readOnly: false },
          idIndex: ID_INDEX_SPEC,
        },
  );
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
