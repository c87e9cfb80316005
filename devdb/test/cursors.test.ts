import { type CommandStartedEvent, Long, MongoServerError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorRegistry } from '../src/cursors.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
const started: CommandStartedEvent[] = [];
beforeAll(async () => {
  t = await startTestServer({}, { monitorCommands: true });
  t.client.on('commandStarted', (e) => started.push(e));
});
afterAll(async () => {
  await t.close();
});

function commandsNamed(name: string, dbName: string): CommandStartedEvent[] {
  return started.filter((e) => e.commandName === name && e.databaseName === dbName);
}

async function numbers(n: number) {
  const db = t.db();
  await db.collection<AnyDoc>('n').insertMany(Array.from({ length: n }, (_, i) => ({ _id: i, v: i })));
  return db;
}

describe('cursors', () => {
  it('pages through getMore with a small batchSize', async () => {
    const db = await numbers(20);
    const docs = await db.collection<AnyDoc>('n').find({}, { batchSize: 3 }).sort({ _id: 1 }).toArray();
    expect(docs.map((d) => d._id)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(commandsNamed('getMore', db.databaseName)).toHaveLength(6);
  });

  it('uses 101 as the default first batch and returns the rest in one getMore', async () => {
    const db = await numbers(250);
    const reply = await db.command({ find: 'n', filter: {} });
    expect(reply.cursor.firstBatch).toHaveLength(101);
    expect(reply.cursor.id).toBeInstanceOf(Long);
    expect(reply.cursor.ns).toBe(`${db.databaseName}.n`);
    const more = await db.command({ getMore: reply.cursor.id, collection: 'n' });
    expect(more.cursor.nextBatch).toHaveLength(149);
    expect(String(more.cursor.id)).toBe('0');
  });

  it('honours limit together with batchSize, and singleBatch', async () => {
    const db = await numbers(30);
    const limited = await db.collection<AnyDoc>('n').find({}, { batchSize: 4, limit: 10 }).toArray();
    expect(limited).toHaveLength(10);
    const single = await db.command({ find: 'n', filter: {}, batchSize: 5, singleBatch: true });
    expect(single.cursor.firstBatch).toHaveLength(5);
    expect(String(single.cursor.id)).toBe('0');
    const empty = await db.command({ find: 'n', filter: {}, batchSize: 0 });
    expect(empty.cursor.firstBatch).toHaveLength(0);
    expect(String(empty.cursor.id)).not.toBe('0');
  });

  it('kills cursors and reports unknown ones', async () => {
    const db = await numbers(10);
    const cursor = db.collection<AnyDoc>('n').find({}, { batchSize: 2 });
    await cursor.next();
    await cursor.close();
    expect(commandsNamed('killCursors', db.databaseName)).toHaveLength(1);

    const reply = await db.command({ find: 'n', filter: {}, batchSize: 2 });
    const id: Long = reply.cursor.id;
    const killed = await db.command({ killCursors: 'n', cursors: [id, Long.fromNumber(12345)] });
    expect(killed.cursorsKilled.map(String)).toEqual([id.toString()]);
    expect(killed.cursorsNotFound.map(String)).toEqual(['12345']);

    const err = await db.command({ getMore: id, collection: 'n' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject({ code: 43, codeName: 'CursorNotFound' });
  });

  it('pages aggregate results too', async () => {
    const db = await numbers(12);
    const agg = await db
      .collection<AnyDoc>('n')
      .aggregate([{ $match: { v: { $gte: 2 } } }], { batchSize: 3 })
      .toArray();
    expect(agg).toHaveLength(10);
    expect(commandsNamed('getMore', db.databaseName).length).toBeGreaterThanOrEqual(3);
  });

  it('drops cursors left idle too long', () => {
    const registry = new CursorRegistry();
    const docs = Array.from({ length: 5 }, (_, i) => ({ i }));
    const reply = registry.open('db.c', docs, 1);
    expect(registry.size).toBe(1);
    registry.sweep(Date.now() + 9 * 60 * 1000);
    expect(registry.size).toBe(1);
    registry.sweep(Date.now() + 11 * 60 * 1000);
    expect(registry.size).toBe(0);
    expect(() => registry.getMore(reply.cursor.id, 'db.c', 1)).toThrow(/not found/);
  });
});
