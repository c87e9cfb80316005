import { parseCollation } from '../collation.js';
import { DevDbError, fail } from '../errors.js';
import { type IndexKey, normalizeIndexSpec, sameKey } from '../indexes.js';
import { optionalNumber } from '../query.js';
import { type Doc, formatDoc, isPlainObject } from '../values.js';
import { type CommandContext, type CommandHandler, docArray, stringField } from './context.js';

function createIndexes(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'createIndexes');
  const specs = docArray(cmd, 'indexes').map(normalizeIndexSpec);
  if (specs.length === 0) fail('BadValue', 'Must specify at least one index to create');
  const db = ctx.store.ensureDb(ctx.db);
  const existing = db.writableCollection(name);
  const coll = existing ?? db.ensureCollection(name);
  for (const spec of specs) {
    parseCollation(spec.collation);
    // An index without a collation takes the collection's default, as in mongod.
    if (spec.collation === undefined && isPlainObject(coll.options.collation)) spec.collation = coll.options.collation;
  }
  const numIndexesBefore = coll.indexes.size + 1;
  const created: string[] = [];
  try {
    for (const spec of specs) if (coll.createIndex(spec)) created.push(spec.name);
  } catch (err) {
    // mongod builds a createIndexes batch all-or-nothing.
    for (const indexName of created) coll.dropIndex(indexName);
    if (err instanceof DevDbError && err.code === 11000) {
      throw new DevDbError('DuplicateKey', `Index build failed: ${coll.ns} :: caused by :: ${err.message}`, err.extra);
    }
    throw err;
  }
  return {
    numIndexesBefore,
    numIndexesAfter: coll.indexes.size + 1,
    ...(created.length === 0 ? { note: 'all indexes already exist' } : {}),
    createdCollectionAutomatically: !existing,
  };
}

function listIndexes(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, 'listIndexes');
  const coll = ctx.store.db(ctx.db)?.collection(name);
  if (!coll) fail('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  const batchSize = isPlainObject(cmd.cursor) ? optionalNumber(cmd.cursor, 'batchSize') : undefined;
  return ctx.cursors.open(coll.ns, coll.indexSpecs(), batchSize);
}

function dropIndexes(cmd: Doc, ctx: CommandContext): Doc {
  const name = stringField(cmd, Object.keys(cmd)[0]!);
  const coll = ctx.store.db(ctx.db)?.collection(name);
  if (!coll) fail('NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
  const nIndexesWas = coll.indexes.size + 1;
  const target = cmd.index;
  if (target === '*') {
    for (const indexName of [...coll.indexes.keys()]) coll.dropIndex(indexName);
    return { nIndexesWas, msg: 'non-_id indexes dropped for collection' };
  }
  if (typeof target === 'string') {
    coll.dropIndex(target);
  } else if (Array.isArray(target) && target.every((t) => typeof t === 'string')) {
    for (const indexName of target)
      if (!coll.indexes.has(indexName) && indexName !== '_id_')
        fail('IndexNotFound', `index not found with name [${indexName}]`);
    for (const indexName of target) coll.dropIndex(indexName);
  } else if (isPlainObject(target)) {
    const match = [...coll.indexes.values()].find((i) => sameKey(i.spec.key, target as IndexKey));
    if (!match) {
      if (sameKey(target as IndexKey, { _id: 1 })) fail('InvalidOptions', 'cannot drop _id index');
      fail('IndexNotFound', `can't find index with key: ${formatDoc(target)}`);
    }
    coll.dropIndex(match.spec.name);
  } else {
    fail('TypeMismatch', "BSON field 'index' must be a string, an array of strings or an index key pattern");
  }
  return { nIndexesWas };
}

export const indexCommands: Record<string, CommandHandler> = {
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
};
