import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyDoc, sleep, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ ttlSweepMs: 25 });
});
afterAll(async () => {
  await t.close();
});

describe('TTL indexes', () => {
  it('removes expired documents and keeps the rest', async () => {
    const c = t.db().collection<AnyDoc>('sessions');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
    const now = Date.now();
    await c.insertMany([
      { _id: 'old', at: new Date(now - 61_000) },
      { _id: 'fresh', at: new Date(now) },
      { _id: 'string', at: '2000-01-01' },
      { _id: 'missing' },
      { _id: 'array', at: [new Date(now + 3_600_000), new Date(now - 120_000)] },
      { _id: 'futureArray', at: [new Date(now + 3_600_000)] },
    ]);
    await sleep(200);
    const left = (await c.find().toArray()).map((d) => d._id).sort();
    expect(left).toEqual(['fresh', 'futureArray', 'missing', 'string']);
  });

  it('expires documents as their time comes', async () => {
    const c = t.db().collection<AnyDoc>('tokens');
    await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await c.insertOne({ _id: 'soon', expiresAt: new Date(Date.now() + 150) });
    expect(await c.countDocuments()).toBe(1);
    await sleep(400);
    expect(await c.countDocuments()).toBe(0);
  });
});
