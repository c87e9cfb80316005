import { MongoBulkWriteError, MongoServerError, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

async function caught(p: Promise<unknown>): Promise<MongoServerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}

describe('unique indexes', () => {
  it("rejects duplicate inserts with mongod's 11000 shape", async () => {
    const db = t.db();
    const users = db.collection<AnyDoc>('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ email: 'x@y.z' });
    const err = await caught(users.insertOne({ email: 'x@y.z' }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'x@y.z' });
    expect(err.errmsg).toBe(
      `E11000 duplicate key error collection: ${db.databaseName}.users index: email_1 dup key: { email: "x@y.z" }`,
    );
    expect(await users.countDocuments()).toBe(1);
  });

  it('treats _id as unique', async () => {
    const c = t.db().collection<AnyDoc>('c');
    const id = new ObjectId();
    await c.insertOne({ _id: id });
    const err = await caught(c.insertOne({ _id: id }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ _id: 1 });
    expect(err.message).toContain(`index: _id_ dup key: { _id: ObjectId('${id.toHexString()}') }`);
  });

  it('stops ordered inserts at the first error and continues unordered ones', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndex({ k: 1 }, { unique: true });
    const ordered = await caught(c.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }]));
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect(ordered.code).toBe(11000);
    const bulk = ordered as MongoBulkWriteError;
    expect(bulk.insertedCount).toBe(1);
    expect(bulk.writeErrors).toHaveLength(1);
    expect(await c.countDocuments()).toBe(1);

    const unordered = (await caught(
      c.insertMany([{ k: 1 }, { k: 3 }, { k: 2 }, { k: 3 }], { ordered: false }),
    )) as MongoBulkWriteError;
    expect(unordered.insertedCount).toBe(2);
    const writeErrors = Array.isArray(unordered.writeErrors) ? unordered.writeErrors : [unordered.writeErrors];
    expect(writeErrors.map((e) => e.index)).toEqual([0, 3]);
    // The driver keeps only code/index/errmsg of bulk write errors.
    expect(writeErrors[1]!.errmsg).toContain('dup key: { k: 3 }');
    expect(await c.countDocuments()).toBe(3);
  });

  it('enforces compound unique keys', async () => {
    const c = t.db().collection<AnyDoc>('members');
    await c.createIndex({ org: 1, user: 1 }, { unique: true, name: 'org_user' });
    await c.insertMany([
      { org: 'a', user: 1 },
      { org: 'a', user: 2 },
      { org: 'b', user: 1 },
    ]);
    const err = await caught(c.insertOne({ org: 'a', user: 2 }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ org: 1, user: 1 });
    expect(err.keyValue).toEqual({ org: 'a', user: 2 });
    expect(err.errmsg).toContain('index: org_user dup key: { org: "a", user: 2 }');
  });

  it('rejects updates and upserts that would duplicate a key', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, email: 'a' },
      { _id: 2, email: 'b' },
    ]);
    const err = await caught(c.updateOne({ _id: 2 }, { $set: { email: 'a' } }));
    expect(err).toMatchObject({ code: 11000, keyValue: { email: 'a' } });
    const upsert = await caught(c.updateOne({ email: 'a', x: 1 }, { $set: { y: 1 } }, { upsert: true }));
    expect(upsert.code).toBe(11000);
    await c.updateOne({ _id: 2 }, { $set: { email: 'b', other: 1 } });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, email: 'a' },
      { _id: 2, email: 'b', other: 1 },
    ]);
  });

  it('treats missing fields as null unless the index is sparse', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('dense').createIndex({ phone: 1 }, { unique: true });
    await db.collection<AnyDoc>('dense').insertOne({ a: 1 });
    const err = await caught(db.collection<AnyDoc>('dense').insertOne({ a: 2 }));
    expect(err.keyValue).toEqual({ phone: null });

    await db.collection<AnyDoc>('sparse').createIndex({ phone: 1 }, { unique: true, sparse: true });
    await db.collection<AnyDoc>('sparse').insertMany([{ a: 1 }, { a: 2 }, { phone: '1' }]);
    await caught(db.collection<AnyDoc>('sparse').insertOne({ phone: '1' }));
  });

  it('honours partialFilterExpression for uniqueness', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await c.insertMany([
      { email: 'a', active: false },
      { email: 'a', active: false },
      { email: 'a', active: true },
    ]);
    const err = await caught(c.insertOne({ email: 'a', active: true }));
    expect(err.code).toBe(11000);
  });

  it('indexes array elements (multikey) for uniqueness and lookups', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndex({ tags: 1 }, { unique: true });
    await c.insertOne({ _id: 1, tags: ['a', 'b'] });
    await c.insertOne({ _id: 2, tags: ['c', 'c'] });
    const err = await caught(c.insertOne({ tags: ['z', 'b'] }));
    expect(err.keyValue).toEqual({ tags: 'b' });
    expect(await c.findOne({ tags: 'c' })).toEqual({ _id: 2, tags: ['c', 'c'] });
  });

  it('refuses to build a unique index over existing duplicates', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.insertMany([{ e: 1 }, { e: 1 }]);
    const err = await caught(c.createIndex({ e: 1 }, { unique: true }));
    expect(err).toMatchObject({ code: 11000, keyValue: { e: 1 } });
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });
});

describe('index management', () => {
  it('round-trips index options through listIndexes', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndexes([
      { key: { email: 1 }, unique: true },
      { key: { a: 1, b: -1 }, name: 'ab', sparse: true },
      { key: { at: 1 }, expireAfterSeconds: 3600 },
      { key: { p: 1 }, name: 'partial', partialFilterExpression: { p: { $exists: true } } },
    ]);
    expect(await c.listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { email: 1 }, name: 'email_1', unique: true },
      { v: 2, key: { a: 1, b: -1 }, name: 'ab', sparse: true },
      { v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 3600 },
      { v: 2, key: { p: 1 }, name: 'partial', partialFilterExpression: { p: { $exists: true } } },
    ]);
    expect(await c.indexExists('ab')).toBe(true);
  });

  it('treats an identical index as a no-op and conflicting ones as errors', async () => {
    const db = t.db();
    const c = db.collection<AnyDoc>('c');
    expect(await c.createIndex({ a: 1 })).toBe('a_1');
    const again = await db.command({ createIndexes: 'c', indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(again).toMatchObject({ numIndexesBefore: 2, numIndexesAfter: 2, note: 'all indexes already exist', ok: 1 });
    expect((await caught(c.createIndex({ a: 1 }, { name: 'a_1', unique: true }))).code).toBe(85);
    expect((await caught(c.createIndex({ b: 1 }, { name: 'a_1' }))).code).toBe(86);
    expect((await caught(c.createIndex({ a: 1 }, { name: 'other' }))).code).toBe(85);
    expect(await c.createIndex({ _id: 1 })).toBe('_id_1');
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
  });

  it("drops indexes by name, key pattern, list and '*'", async () => {
    const db = t.db();
    const c = db.collection<AnyDoc>('c');
    await c.createIndexes([{ key: { a: 1 } }, { key: { b: 1 } }, { key: { c: 1 } }, { key: { d: 1 } }]);
    await c.dropIndex('a_1');
    await db.command({ dropIndexes: 'c', index: { b: 1 } });
    await db.command({ dropIndexes: 'c', index: ['c_1'] });
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'd_1']);
    await c.createIndex({ e: 1 });
    const all = await db.command({ dropIndexes: 'c', index: '*' });
    expect(all.nIndexesWas).toBe(3);
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    expect((await caught(c.dropIndex('nope'))).code).toBe(27);
    expect((await caught(c.dropIndex('_id_'))).code).toBe(72);
    expect((await caught(db.collection<AnyDoc>('missing').listIndexes().toArray())).code).toBe(26);
  });

  it('uses indexes for equality lookups without changing results', async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndex({ k: 1 });
    await c.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, k: i % 5, n: i })));
    expect(await c.countDocuments({ k: 3 })).toBe(10);
    expect(await c.countDocuments({ k: 3, n: { $gte: 25 } })).toBe(5);
    expect(await c.countDocuments({ k: { $in: [1, 2] } })).toBe(20);
    expect(await c.countDocuments({ $and: [{ k: 4 }, { n: 49 }] })).toBe(1);
    await c.updateMany({ k: 3 }, { $set: { k: 7 } });
    expect(await c.countDocuments({ k: 3 })).toBe(0);
    expect(await c.countDocuments({ k: 7 })).toBe(10);
    expect(await c.countDocuments({ k: 3.0 })).toBe(0);
    expect(await c.findOne({ _id: 12 })).toEqual({ _id: 12, k: 2, n: 12 });
  });

  it("applies a collation to sorting (mingo's collation support)", async () => {
    const c = t.db().collection<AnyDoc>('c');
    await c.createIndex({ name: 1 });
    await c.insertMany([{ name: 'ann' }, { name: 'Bob' }]);
    expect((await c.find({}).sort({ name: 1 }).toArray()).map((d) => d.name)).toEqual(['Bob', 'ann']);
    const sorted = await c
      .find({ name: { $exists: true } }, { collation: { locale: 'en', strength: 2 } })
      .sort({ name: 1 })
      .toArray();
    expect(sorted.map((d) => d.name)).toEqual(['ann', 'Bob']);
  });
});
