import { env } from 'cloudflare:test';
import { Binary, Decimal128, Double, Int32, Long, MongoBulkWriteError, MongoClient, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { encodedDocuments } from '../../../durable-objects/encoded-documents';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { withDatabase } from '../../../worker/platform/db/database-name';
import { register } from '../../support/accounts';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { LONG_TEST_MS } from '../../support/time-limits';
import { UNREACHABLE_ANSWER_MS } from '../../support/unreachable-bound';
import { createApi, type TestEnv, uniqueDbName } from '../../support/worker-api';

// The data path's two modes (worker/platform/db/connection.ts): the connection-holding gateway (durable-objects/db-gateway.ts)
// and a client per request. The spare dev database (test/support/spare-devdb.ts) is stopped, restarted and counted here only.
const spare = env as unknown as { SPARE_MONGODB_URI: string; SPARE_DEVDB_CONTROL: string };

function gatewayStore(label: string) {
  const testEnv = {
    ...(env as TestEnv),
    DB_ACCESS: 'gateway',
    MONGODB_URI: withDatabase(env.MONGODB_URI!, uniqueDbName(label)),
  };
  return openRequestConnection(testEnv).store;
}

async function spareConnections(watcher: MongoClient): Promise<number> {
  const status = await watcher.db('admin').command({ serverStatus: 1 });
  return status.connections.totalCreated;
}

describe('database gateway', () => {
  it('carries ObjectId, Date, Decimal128, Long, Binary, Int32 and Double across RPC both ways, unchanged', async () => {
    const store = gatewayStore('gw-values');
    const doc = {
      _id: new ObjectId(),
      at: new Date('2026-01-02T03:04:05.678Z'),
      price: Decimal128.fromString('19.99'),
      big: Long.fromString('9007199254740993'),
      small: Long.fromNumber(5),
      bytes: new Binary(new Uint8Array([1, 2, 3]), 4),
      int: new Int32(7),
      ratio: new Double(2.5),
      nested: { ids: [new ObjectId()], missing: null },
    };
    await store.db.collection('values').insertOne(doc);
    const back = await store.db.collection('values').findOne({ _id: doc._id, at: doc.at, big: doc.big });
    expect(back?._id).toBeInstanceOf(ObjectId);
    expect(back?._id.equals(doc._id)).toBe(true);
    expect(back?.at).toEqual(doc.at);
    expect(back?.price).toBeInstanceOf(Decimal128);
    expect(back?.price.toString()).toBe('19.99');
    // Beyond 2^53 the driver hands over a Long; within it, a number (its promoteLongs default): so does the gateway.
    expect(back?.big).toBeInstanceOf(Long);
    expect(back?.big.toString()).toBe('9007199254740993');
    expect(back?.small).toBe(5);
    expect(back?.bytes).toBeInstanceOf(Binary);
    expect(back?.bytes.sub_type).toBe(4);
    expect([...back!.bytes.buffer]).toEqual([1, 2, 3]);
    expect(back?.int).toBe(7);
    expect(back?.ratio).toBe(2.5);
    expect(back?.nested.ids[0].equals(doc.nested.ids[0])).toBe(true);
    const types = await store.db
      .collection('values')
      .aggregate([{ $project: { _id: 0, big: { $type: '$big' }, small: { $type: '$small' } } }])
      .toArray();
    expect(types).toEqual([{ big: 'long', small: 'long' }]);
  });

  it("carries a command's encoded documents as bytes: an ordered insert stops at its first refusal, as sent", async () => {
    const store = gatewayStore('gw-sequence');
    const [a, b] = [new ObjectId(), new ObjectId()];
    const documents = [{ _id: a }, { _id: b, at: new Date(0) }, { _id: a }, { _id: new ObjectId() }];
    const reply = await store.db.command({
      insert: 'sequenced',
      documents: encodedDocuments('documents', documents),
      ordered: true,
    });
    expect(reply).toMatchObject({ n: 2, writeErrors: [{ index: 2, code: 11000 }] });
    const stored = await store.db
      .collection('sequenced')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(stored).toEqual([{ _id: a }, { _id: b, at: new Date(0) }]);
  });

  it('gives a new document its _id in place, as the driver does', async () => {
    const store = gatewayStore('gw-ids');
    const doc: { name: string; _id?: ObjectId } = { name: 'x' };
    const result = await store.db.collection('things').insertOne(doc);
    expect(doc._id).toBeInstanceOf(ObjectId);
    expect(result.insertedId.equals(doc._id!)).toBe(true);
  });

  it('answers insertMany with the ids of its documents, giving one to each whose _id is null, as the driver does', async () => {
    const store = gatewayStore('gw-many-ids');
    const given = new ObjectId();
    const docs: { n: number; _id?: ObjectId | null }[] = [{ n: 1 }, { n: 2, _id: given }, { n: 3, _id: null }];
    const result = await store.db.collection<{ n: number }>('things').insertMany(docs as { n: number }[]);
    expect(docs[1]!._id).toBe(given);
    expect(docs.every((doc) => doc._id instanceof ObjectId)).toBe(true);
    expect(result).toEqual({
      acknowledged: true,
      insertedCount: 3,
      insertedIds: { 0: docs[0]!._id, 1: given, 2: docs[2]!._id },
    });
    const stored = await store.db.collection('things').find({}).sort({ n: 1 }).toArray();
    expect(stored.map((doc) => doc._id.toHexString())).toEqual(docs.map((doc) => doc._id!.toHexString()));
  });

  it('keeps MongoDB error codes: a duplicate key is 11000 with keyValue, a bulk write a MongoBulkWriteError', async () => {
    const store = gatewayStore('gw-errors');
    const things = store.db.collection('things');
    await things.createIndexes([{ key: { email: 1 }, unique: true }]);
    await things.insertOne({ email: 'a@x.co' });
    const duplicate = await things.insertOne({ email: 'a@x.co' }).catch((err) => err);
    expect(duplicate.code).toBe(11000);
    expect(duplicate.keyValue).toEqual({ email: 'a@x.co' });
    const bulk = await things
      .bulkWrite([{ insertOne: { document: { email: 'b@x.co' } } }, { insertOne: { document: { email: 'a@x.co' } } }], {
        ordered: false,
      })
      .catch((err) => err);
    expect(bulk).toBeInstanceOf(MongoBulkWriteError);
    expect([bulk.writeErrors].flat().map((e: { index: number; code: number }) => [e.index, e.code])).toEqual([
      [1, 11000],
    ]);
    expect(bulk.result.insertedCount).toBe(1);
  });

  it('runs cursors with filter, sort, skip, limit, projection and map, and the other read methods', async () => {
    const store = gatewayStore('gw-cursor');
    const things = store.db.collection<{ _id: ObjectId; n: number; tag: string }>('things');
    await things.insertMany([1, 2, 3, 4, 5].map((n) => ({ _id: new ObjectId(), n, tag: n % 2 ? 'odd' : 'even' })));
    const page = await things
      .find({ n: { $gt: 1 } }, { projection: { _id: 0, n: 1 } })
      .sort({ n: -1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(page).toEqual([{ n: 4 }, { n: 3 }]);
    expect(
      await things
        .find({})
        .sort({ n: 1 })
        .map((doc) => doc.n)
        .toArray(),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(await things.countDocuments({ tag: 'odd' })).toBe(3);
    expect((await things.distinct('tag')).sort()).toEqual(['even', 'odd']);
    const updated = await things.findOneAndUpdate({ n: 5 }, { $inc: { n: 10 } }, { returnDocument: 'after' });
    expect(updated?.n).toBe(15);
    expect((await things.deleteMany({ tag: 'even' })).deletedCount).toBe(2);
  });

  it('opens at most 2 connections for 100 requests (counted by the dev database)', async () => {
    const api = createApi('gw-count', {
      DB_ACCESS: 'gateway',
      MONGODB_URI: `${spare.SPARE_MONGODB_URI}/${uniqueDbName('gw-count')}`,
    });
    const rider = await register(api);
    const watcher = new MongoClient(spare.SPARE_MONGODB_URI, { maxPoolSize: 1 });
    try {
      // The gateway's first request opens its held connections; the count is of the 100 after it.
      expect((await api.fetch('/api/users/me', { headers: { 'x-auth-token': rider.token } })).status).toBe(200);
      const before = await spareConnections(watcher);
      for (let i = 0; i < 100; i += 1) {
        const res = await api.fetch('/api/users/me', { headers: { 'x-auth-token': rider.token } });
        expect(res.status).toBe(200);
      }
      expect((await spareConnections(watcher)) - before).toBeLessThanOrEqual(2);
      // The counter does count: a client per request opens at least one connection per request.
      const direct = createApi('gw-count-direct', { DB_ACCESS: 'direct', MONGODB_URI: api.env.MONGODB_URI });
      const beforeDirect = await spareConnections(watcher);
      for (let i = 0; i < 5; i += 1) await direct.fetch('/api/users/me', { headers: { 'x-auth-token': rider.token } });
      expect((await spareConnections(watcher)) - beforeDirect).toBeGreaterThanOrEqual(5);
    } finally {
      await watcher.close();
    }
  }, 60_000);
});

describe.each(['gateway', 'direct'])('failure behaviour with DB_ACCESS=%s', (mode) => {
  it(
    'answers 503 within seconds while the database is down and recovers once it is back, without a Worker restart',
    async () => {
      const api = createApi(
        `down-${mode}`,
        { DB_ACCESS: mode, MONGODB_URI: `${spare.SPARE_MONGODB_URI}/${uniqueDbName(`down-${mode}`)}` },
        { indexes: false },
      );
      expect((await api.fetch('/api/health')).status).toBe(200);
      await fetch(`${spare.SPARE_DEVDB_CONTROL}/stop`, { method: 'POST' });
      try {
        // The outage is logged; kept here, where it is expected, out of the suite's output.
        const lines = await captureLogLines(async () => {
          let started = Date.now();
          const health = await api.fetch('/api/health');
          expect(Date.now() - started).toBeLessThan(UNREACHABLE_ANSWER_MS);
          expect(health.status).toBe(503);
          started = Date.now();
          const data = await api.fetch('/api/users', {
            method: 'POST',
            json: { name: 'Kim', email: `kim-${mode}@example.com`, password: 'password123' },
          });
          expect(Date.now() - started).toBeLessThan(UNREACHABLE_ANSWER_MS);
          expect(data.status).toBe(503);
        });
        expect(eventLines(lines, 'health.db-ping.failed')).toHaveLength(1);
      } finally {
        await fetch(`${spare.SPARE_DEVDB_CONTROL}/start`, { method: 'POST' });
      }
      const back = await api.fetch('/api/users', {
        method: 'POST',
        json: { name: 'Kim', email: `kim-${mode}@example.com`, password: 'password123' },
      });
      expect(back.status).toBe(201);
      expect(await (await api.fetch('/api/health')).json()).toMatchObject({ ok: true, db: 'up' });
    },
    LONG_TEST_MS,
  );
});
