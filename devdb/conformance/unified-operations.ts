// Maps unified-format operations (source/unified-test-format in mongodb/specifications) onto the official driver.
import type { Collection, Db, MongoClient } from 'mongodb';

type Doc = Record<string, unknown>;

/** Operations that need something devdb cannot offer (fail points, client bulk writes need 8.0). */
export const UNSUPPORTED_OPERATIONS = new Set(['failPoint', 'targetedFailPoint', 'modifyCollection']);

export class UnsupportedOperation extends Error {}

/** Driver option names differ from the spec's in a few places. */
function options(args: Doc, ...consumed: string[]): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(args)) {
    if (consumed.includes(k) || k === 'session') continue;
    if (k === 'returnDocument') out[k] = String(v).toLowerCase();
    else out[k] = v;
  }
  return out;
}

function plain(result: object, fields: string[]): Doc {
  const out: Doc = {};
  const source = result as Doc;
  for (const f of fields) if (source[f] !== undefined && source[f] !== null) out[f] = source[f];
  return out;
}

const UPDATE_FIELDS = ['matchedCount', 'modifiedCount', 'upsertedCount', 'upsertedId'];
export const BULK_FIELDS = [
  'insertedCount',
  'matchedCount',
  'modifiedCount',
  'deletedCount',
  'upsertedCount',
  'insertedIds',
  'upsertedIds',
];

async function collectionOp(c: Collection<Doc>, name: string, a: Doc): Promise<unknown> {
  const filter = (a.filter ?? {}) as Doc;
  switch (name) {
    case 'aggregate':
      return c.aggregate(a.pipeline as Doc[], options(a, 'pipeline')).toArray();
    case 'bulkWrite':
      return plain(await c.bulkWrite(a.requests as never[], options(a, 'requests')), BULK_FIELDS);
    case 'countDocuments':
      return c.countDocuments(filter, options(a, 'filter'));
    case 'count':
      return c.count(filter, options(a, 'filter'));
    case 'estimatedDocumentCount':
      return c.estimatedDocumentCount(options(a));
    case 'deleteOne':
      return plain(await c.deleteOne(filter, options(a, 'filter')), ['deletedCount']);
    case 'deleteMany':
      return plain(await c.deleteMany(filter, options(a, 'filter')), ['deletedCount']);
    case 'distinct':
      return c.distinct(String(a.fieldName), filter, options(a, 'fieldName', 'filter'));
    case 'find':
      return c.find(filter, options(a, 'filter')).toArray();
    case 'findOne':
      return c.findOne(filter, options(a, 'filter'));
    case 'findOneAndDelete':
      return c.findOneAndDelete(filter, options(a, 'filter'));
    case 'findOneAndReplace':
      return c.findOneAndReplace(filter, a.replacement as Doc, options(a, 'filter', 'replacement'));
    case 'findOneAndUpdate':
      return c.findOneAndUpdate(filter, a.update as Doc, options(a, 'filter', 'update'));
    case 'insertOne':
      return plain(await c.insertOne(a.document as Doc, options(a, 'document')), ['insertedId']);
    case 'insertMany':
      return plain(await c.insertMany(a.documents as Doc[], options(a, 'documents')), ['insertedIds']);
    case 'replaceOne':
      return plain(
        await c.replaceOne(filter, a.replacement as Doc, options(a, 'filter', 'replacement')),
        UPDATE_FIELDS,
      );
    case 'updateOne':
      return plain(await c.updateOne(filter, a.update as Doc, options(a, 'filter', 'update')), UPDATE_FIELDS);
    case 'updateMany':
      return plain(await c.updateMany(filter, a.update as Doc, options(a, 'filter', 'update')), UPDATE_FIELDS);
    case 'createIndex':
      return c.createIndex(a.keys as Doc as never, options(a, 'keys'));
    case 'dropIndex':
      return c.dropIndex(String(a.name), options(a, 'name'));
    case 'listIndexes':
      return c.listIndexes(options(a)).toArray();
    case 'drop':
      return c.drop(options(a));
    default:
      throw new UnsupportedOperation(`collection operation ${name}`);
  }
}

async function databaseOp(db: Db, name: string, a: Doc): Promise<unknown> {
  switch (name) {
    case 'aggregate':
      return db.aggregate(a.pipeline as Doc[], options(a, 'pipeline')).toArray();
    case 'runCommand':
      return db.command(a.command as Doc, options(a, 'command', 'commandName'));
    case 'createCollection':
      await db.createCollection(String(a.collection), options(a, 'collection'));
      return undefined;
    case 'dropCollection':
      return db.dropCollection(String(a.collection), options(a, 'collection'));
    case 'listCollections':
      return db.listCollections((a.filter ?? {}) as Doc, options(a, 'filter')).toArray();
    case 'listCollectionNames':
      return (await db.listCollections((a.filter ?? {}) as Doc, { nameOnly: true }).toArray()).map((c) => c.name);
    default:
      throw new UnsupportedOperation(`database operation ${name}`);
  }
}

async function clientOp(client: MongoClient, name: string, a: Doc): Promise<unknown> {
  switch (name) {
    case 'listDatabases':
      return (await client.db('admin').admin().listDatabases(options(a))).databases;
    case 'clientBulkWrite': {
      // The spec writes {replaceOne: {...}}; the Node driver takes {name: 'replaceOne', ...}.
      const models = (a.models as Doc[]).map((m) => {
        const [name, fields] = Object.entries(m)[0] as [string, Doc];
        return { name, ...fields };
      });
      return client.bulkWrite(models as never[], options(a, 'models'));
    }
    default:
      throw new UnsupportedOperation(`client operation ${name}`);
  }
}

/** Runs one operation against the entity it names and returns a plain result for matching. */
export async function runOperation(entity: unknown, name: string, args: Doc): Promise<unknown> {
  const kind = (entity as { constructor?: { name?: string } })?.constructor?.name;
  if (kind === 'Collection') return collectionOp(entity as Collection<Doc>, name, args);
  if (kind === 'Db') return databaseOp(entity as Db, name, args);
  if (kind === 'MongoClient') return clientOp(entity as MongoClient, name, args);
  throw new UnsupportedOperation(`operation ${name} on ${String(kind)}`);
}
