import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, startTestServer, tempDir, useTestServer } from './helpers.js';

const t = useTestServer();

const codeOf = (e: { code?: number }) => e.code;

async function seeded() {
  const db = t.db();
  await db.collection<AnyDoc>('src').insertMany([
    { _id: 1, x: 1 },
    { _id: 2, x: 2 },
    { _id: 3, x: 3 },
  ]);
  return db;
}

describe('$out', () => {
  it('replaces the target collection, keeping its indexes, and returns no documents', async () => {
    const db = await seeded();
    const out = db.collection<AnyDoc>('out');
    await out.insertOne({ _id: 9, old: true });
    await out.createIndex({ x: 1 }, { unique: true });
    const res = await db
      .collection<AnyDoc>('src')
      .aggregate([{ $match: { x: { $gt: 1 } } }, { $out: 'out' }])
      .toArray();
    expect(res).toEqual([]);
    expect(await out.find().toArray()).toEqual([
      { _id: 2, x: 2 },
      { _id: 3, x: 3 },
    ]);
    expect((await out.listIndexes().toArray()).map((i) => i.name)).toContain('x_1');
  });

  it('leaves the target untouched when the results break a unique index', async () => {
    const db = await seeded();
    const out = db.collection<AnyDoc>('out');
    await out.insertOne({ _id: 9 });
    const err = await db
      .collection<AnyDoc>('src')
      .aggregate([{ $project: { _id: 0, x: 1 } }, { $set: { _id: 1 } }, { $out: { db: db.databaseName, coll: 'out' } }])
      .toArray()
      .catch(codeOf);
    expect(err).toBe(11000);
    expect(await out.find().toArray()).toEqual([{ _id: 9 }]);
  });
});

describe('$merge', () => {
  it('merges into matching documents and inserts the rest by default', async () => {
    const db = await seeded();
    const into = db.collection<AnyDoc>('into');
    await into.insertOne({ _id: 1, keep: true, x: 0 });
    await db
      .collection<AnyDoc>('src')
      .aggregate([{ $merge: { into: 'into' } }])
      .toArray();
    expect(await into.find().toArray()).toEqual([
      { _id: 1, keep: true, x: 1 },
      { _id: 2, x: 2 },
      { _id: 3, x: 3 },
    ]);
  });

  it('honours whenMatched replace/keepExisting/fail/pipeline and whenNotMatched discard/fail', async () => {
    const db = await seeded();
    const into = db.collection<AnyDoc>('into');
    const src = db.collection<AnyDoc>('src');
    await into.insertOne({ _id: 1, keep: true });
    const merge = (spec: AnyDoc) => src.aggregate([{ $merge: { into: 'into', ...spec } }]).toArray();
    await merge({ whenMatched: 'keepExisting', whenNotMatched: 'discard' });
    expect(await into.find().toArray()).toEqual([{ _id: 1, keep: true }]);
    await merge({ whenMatched: 'replace', whenNotMatched: 'discard' });
    expect(await into.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
    await merge({ whenMatched: [{ $set: { x: { $add: ['$x', '$$new.x'] } } }], whenNotMatched: 'discard' });
    expect(await into.findOne({ _id: 1 })).toEqual({ _id: 1, x: 2 });
    const dup = await merge({ whenMatched: 'fail' }).catch((e: AnyDoc) => e);
    expect(dup).toMatchObject({ code: 11000, errorResponse: { keyPattern: { _id: 1 }, keyValue: { _id: 1 } } });
    expect(await merge({ whenMatched: 'keepExisting', whenNotMatched: 'fail' }).catch(codeOf)).toBe(13113);
  });

  it('needs a unique index on non-_id "on" fields', async () => {
    const db = await seeded();
    const src = db.collection<AnyDoc>('src');
    expect(
      await src
        .aggregate([{ $merge: { into: 'by', on: 'x' } }])
        .toArray()
        .catch(codeOf),
    ).toBe(51183);
    await db.collection<AnyDoc>('by').createIndex({ x: 1 }, { unique: true });
    await src.aggregate([{ $project: { _id: 0, x: 1 } }, { $merge: { into: 'by', on: 'x' } }]).toArray();
    expect(await db.collection<AnyDoc>('by').countDocuments()).toBe(3);
  });
});

describe('read-only views', () => {
  it('are created with viewOn and pipeline, listed as views and read through every read command', async () => {
    const db = await seeded();
    await db.createCollection('big', { viewOn: 'src', pipeline: [{ $match: { x: { $gte: 2 } } }] });
    const view = db.collection<AnyDoc>('big');
    expect(await view.find({}, { sort: { x: -1 } }).toArray()).toEqual([
      { _id: 3, x: 3 },
      { _id: 2, x: 2 },
    ]);
    expect(await view.findOne({ _id: 2 })).toEqual({ _id: 2, x: 2 });
    expect(await view.countDocuments({ x: 3 })).toBe(1);
    expect(await view.estimatedDocumentCount()).toBe(2);
    expect(await view.distinct('x')).toEqual([2, 3]);
    expect(await view.aggregate([{ $group: { _id: null, n: { $sum: '$x' } } }]).toArray()).toEqual([
      { _id: null, n: 5 },
    ]);
    const [info] = await db.listCollections({ name: 'big' }).toArray();
    expect(info).toMatchObject({ type: 'view', options: { viewOn: 'src' }, info: { readOnly: true } });
    await db.collection<AnyDoc>('src').insertOne({ _id: 4, x: 4 });
    expect(await view.countDocuments()).toBe(3);
  });

  it('refuse writes and indexes with 166 CommandNotSupportedOnView', async () => {
    const db = await seeded();
    await db.createCollection('v', { viewOn: 'src', pipeline: [] });
    const v = db.collection<AnyDoc>('v');
    expect(await v.insertOne({ x: 1 }).catch(codeOf)).toBe(166);
    expect(await v.updateOne({}, { $set: { y: 1 } }).catch(codeOf)).toBe(166);
    expect(await v.deleteMany({}).catch(codeOf)).toBe(166);
    expect(await v.findOneAndUpdate({}, { $set: { y: 1 } }).catch(codeOf)).toBe(166);
    expect(await v.createIndex({ x: 1 }).catch(codeOf)).toBe(166);
    expect(
      await db
        .collection<AnyDoc>('src')
        .aggregate([{ $out: 'v' }])
        .toArray()
        .catch(codeOf),
    ).toBe(166);
    expect(await db.collection<AnyDoc>('src').countDocuments()).toBe(3);
    expect(await v.drop()).toBe(true);
  });

  it('survive a restart, with a case-insensitive unique index', async () => {
    const dataDir = tempDir();
    try {
      const first = await startTestServer({ dataDir });
      const db = first.client.db('app');
      await db.collection<AnyDoc>('src').insertMany([{ x: 1 }, { x: 2 }]);
      await db.createCollection('v', { viewOn: 'src', pipeline: [{ $match: { x: 2 } }] });
      await db
        .collection<AnyDoc>('u')
        .createIndex({ e: 1 }, { unique: true, collation: { locale: 'en', strength: 2 } });
      await db.collection<AnyDoc>('u').insertOne({ e: 'Bob@x.com' });
      await first.close();
      const second = await startTestServer({ dataDir });
      const again = second.client.db('app');
      expect(
        await again
          .collection<AnyDoc>('v')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ x: 2 }]);
      expect(await again.collection<AnyDoc>('v').insertOne({ x: 3 }).catch(codeOf)).toBe(166);
      expect(await again.collection<AnyDoc>('u').insertOne({ e: 'bob@X.com' }).catch(codeOf)).toBe(11000);
      await second.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
