import { MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

describe('databases and collections', () => {
  it('lists databases once they hold a collection', async () => {
    const db = t.db();
    const admin = t.client.db('admin').admin();
    expect((await admin.listDatabases()).databases.map((d) => d.name)).not.toContain(db.databaseName);
    await db.collection<AnyDoc>('c').insertOne({ a: 1 });
    const all = await admin.listDatabases();
    const entry = all.databases.find((d) => d.name === db.databaseName);
    expect(entry).toMatchObject({ empty: false });
    expect(entry!.sizeOnDisk).toBeGreaterThan(0);
    const named = await admin.listDatabases({ nameOnly: true });
    expect(named.databases.find((d) => d.name === db.databaseName)).toEqual({ name: db.databaseName });
    const filtered = await admin.command({ listDatabases: 1, filter: { name: db.databaseName } });
    expect(filtered.databases).toHaveLength(1);
    const notAdmin = await db.command({ listDatabases: 1 }).catch((e: MongoServerError) => e);
    expect(notAdmin).toBeInstanceOf(MongoServerError);
  });

  it('creates collections explicitly and implicitly, and lists them', async () => {
    const db = t.db();
    await db.createCollection('explicit', { validator: { a: { $exists: true } } });
    await db.collection<AnyDoc>('implicit').insertOne({ a: 1 });
    const infos = await db.listCollections().toArray();
    expect(infos.map((i) => i.name).sort()).toEqual(['explicit', 'implicit']);
    expect(infos.find((i) => i.name === 'explicit')).toMatchObject({
      type: 'collection',
      options: { validator: { a: { $exists: true } } },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    });
    expect(await db.listCollections({ name: 'implicit' }, { nameOnly: true }).toArray()).toEqual([
      { name: 'implicit', type: 'collection' },
    ]);
    const reply = await db.command({ listCollections: 1, filter: { name: { $in: ['explicit'] } }, cursor: {} });
    expect(reply.cursor.ns).toBe(`${db.databaseName}.$cmd.listCollections`);
    expect(reply.cursor.firstBatch).toHaveLength(1);
  });

  it('accepts a repeated identical create and rejects a different one', async () => {
    const db = t.db();
    await db.command({ create: 'c' });
    await db.command({ create: 'c' });
    const err = await db.command({ create: 'c', capped: true, size: 1024 }).catch((e: MongoServerError) => e);
    expect(err).toMatchObject({ code: 48, codeName: 'NamespaceExists' });
  });

  it('drops collections and databases', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('a').insertOne({ x: 1 });
    await db.collection<AnyDoc>('b').insertOne({ x: 1 });
    await db.collection<AnyDoc>('a').createIndex({ x: 1 });
    expect(await db.collection<AnyDoc>('a').drop()).toBe(true);
    expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['b']);
    expect(await db.collection<AnyDoc>('a').countDocuments()).toBe(0);
    expect((await db.command({ drop: 'never-existed' })).ok).toBe(1);
    expect(await db.dropDatabase()).toBe(true);
    expect(await db.listCollections().toArray()).toEqual([]);
    await db.collection<AnyDoc>('b').insertOne({ again: true });
    expect(
      await db
        .collection<AnyDoc>('b')
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ again: true }]);
  });
});
