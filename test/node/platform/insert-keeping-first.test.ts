import { type Db, MongoBulkWriteError, MongoClient, MongoServerError, ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeError, encodeError } from '../../../durable-objects/db-gateway-codec';
import { encodedDocuments } from '../../../durable-objects/encoded-documents';
import { isDatabaseUnreachable } from '../../../worker/platform/db/errors';
import {
  DatabaseWriteUnconfirmedError,
  insertKeepingFirst,
  refusedPositions,
  unconfirmedOr,
} from '../../../worker/platform/db/insert-keeping-first';
import { useDevDatabase } from '../../support/dev-database';
import { startWriteConcernProxy } from '../../support/write-concern-proxy';

// insertKeepingFirst is one `insert` command where the ingestion once ran insertMany: the refused positions and the
// stored documents must be what an unordered insertMany gives, duplicates kept out, anything else thrown.

const dev = useDevDatabase();
let db: Db;

beforeAll(() => {
  db = dev.client.db('insert_keeping_first');
});

/** What an unordered insertMany refuses, the way the ingestion read it before. */
async function insertManyRefusals(name: string, docs: Record<string, unknown>[]): Promise<Set<number>> {
  try {
    await db.collection(name).insertMany(docs, { ordered: false });
    return new Set();
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    return new Set([err.writeErrors].flat().map((writeError) => writeError.index));
  }
}

async function uniqueCollection(name: string) {
  const collection = db.collection<Record<string, unknown>>(name);
  await collection.createIndex({ key: 1 }, { unique: true });
  return collection;
}

describe('insertKeepingFirst', () => {
  it('refuses the positions an unordered insertMany refuses and stores the same documents', async () => {
    const [viaCommand, viaBulk] = await Promise.all([uniqueCollection('by_command'), uniqueCollection('by_bulk')]);
    const at = new Date('2026-01-02T03:04:05.678Z');
    const first = [0, 1, 2].map((n) => ({ _id: new ObjectId(), key: `k${n}`, at, who: null, tags: ['a'] }));
    // A resent batch with a new document among the old ones, and a document repeated inside the batch.
    const second = [first[1]!, { ...first[2]!, _id: new ObjectId() }, { _id: new ObjectId(), key: 'k3', at }];
    second.push({ ...second[2]!, _id: new ObjectId() });
    for (const batch of [first, second]) {
      const expected = await insertManyRefusals('by_bulk', structuredClone(batch));
      expect(await insertKeepingFirst(db, viaCommand, structuredClone(batch))).toEqual(expected);
    }
    expect(await insertKeepingFirst(db, viaCommand, [])).toEqual(new Set());
    const stored = (name: string) =>
      db
        .collection(name)
        .find({}, { sort: { key: 1 } })
        .toArray();
    const [command, bulk] = await Promise.all([stored('by_command'), stored('by_bulk')]);
    expect(command).toEqual(bulk);
    expect(command.map((doc) => doc.key)).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(viaBulk.collectionName).toBe('by_bulk');
  });

  it('throws a refusal other than a duplicate, as insertMany does', async () => {
    const collection = db.collection<Record<string, unknown>>('other_refusal');
    // An _id that is an array: the server refuses the document itself, not as a duplicate.
    const docs = [{ _id: new ObjectId() }, { _id: [1, 2] as unknown as ObjectId }];
    await expect(insertKeepingFirst(db, collection, docs)).rejects.toMatchObject({ name: 'MongoServerError' });
  });
});

describe('what an insert reply or a failed insert means', () => {
  it('a write concern failure is an unconfirmed write, answered as the database being unreachable (503)', () => {
    let thrown: unknown;
    try {
      refusedPositions({
        n: 2,
        writeErrors: [{ index: 1, code: 11000 }],
        writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' },
      });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DatabaseWriteUnconfirmedError);
    expect(isDatabaseUnreachable(thrown)).toBe(true);
  });

  it('duplicates alone are refused positions; any other refusal is thrown as the server error', () => {
    expect(
      refusedPositions({
        n: 1,
        writeErrors: [
          { index: 0, code: 11000 },
          { index: 2, code: 11000 },
        ],
      }),
    ).toEqual(new Set([0, 2]));
    expect(() =>
      refusedPositions({
        n: 1,
        writeErrors: [
          { index: 0, code: 11000 },
          { index: 1, code: 121, errmsg: 'Document failed validation' },
        ],
      }),
    ).toThrow(MongoServerError);
  });

  it('a primary that stepped down or shut down mid-write makes the insert unconfirmed; a bad command stays as it is', () => {
    for (const code of [10107, 189, 91, 11600]) {
      const mapped = unconfirmedOr(new MongoServerError({ code, message: 'not primary', ok: 0 }));
      expect(mapped).toBeInstanceOf(DatabaseWriteUnconfirmedError);
      expect(isDatabaseUnreachable(mapped)).toBe(true);
    }
    const badCommand = new MongoServerError({ code: 2, message: 'BadValue', ok: 0 });
    expect(unconfirmedOr(badCommand)).toBe(badCommand);
  });
});

describe('an insert the server stored but could not confirm (a write concern failure)', () => {
  it('is unconfirmed (503) directly and through the gateway, so the client resends and finds its documents stored', async () => {
    const proxy = await startWriteConcernProxy(dev.handle);
    const viaProxy = new MongoClient(proxy.uri, { serverSelectionTimeoutMS: 3000 });
    try {
      const proxied = viaProxy.db('insert_keeping_first');
      const docs = [{ _id: new ObjectId() }, { _id: new ObjectId() }];
      const direct = await insertKeepingFirst(proxied, proxied.collection('unconfirmed'), docs).catch(
        (e: unknown) => e,
      );
      expect(direct).toBeInstanceOf(DatabaseWriteUnconfirmedError);
      expect(isDatabaseUnreachable(direct)).toBe(true);
      // The gateway object meets the driver's error and hands the Worker what encodeError keeps of it.
      const fromDriver = await proxied
        .command({ insert: 'unconfirmed', documents: encodedDocuments('documents', [{ _id: 1 }]), ordered: false })
        .catch((e: unknown) => e);
      const crossed = unconfirmedOr(decodeError(encodeError(fromDriver)));
      expect(crossed).toBeInstanceOf(DatabaseWriteUnconfirmedError);
      expect(isDatabaseUnreachable(crossed)).toBe(true);
      expect(await insertKeepingFirst(db, db.collection('unconfirmed'), docs)).toEqual(new Set([0, 1]));
      expect(proxy.inserts()).toBe(2);
    } finally {
      await viaProxy.close();
      await proxy.close();
    }
  });
});
