import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

interface Person {
  _id: number;
  name: string;
  age: number;
  tags?: string[];
  address: { city: string };
  country?: string;
}

const people: Person[] = [
  { _id: 1, name: 'ann', age: 31, tags: ['a', 'b'], address: { city: 'Oslo' } },
  { _id: 2, name: 'bob', age: 25, tags: ['b'], address: { city: 'Rome' } },
  { _id: 3, name: 'cid', age: 40, tags: [], address: { city: 'Oslo' } },
  { _id: 4, name: 'dee', age: 25, address: { city: 'Lima' } },
];

describe('insert and find', () => {
  it('inserts and finds with filter, sort, projection, skip and limit', async () => {
    const c = t.db().collection<AnyDoc>('people');
    const res = await c.insertMany(people);
    expect(res.insertedCount).toBe(4);
    expect(await c.find({ age: 25 }).sort({ name: -1 }).toArray()).toEqual([people[3], people[1]]);
    expect(
      await c
        .find({ 'address.city': 'Oslo' }, { projection: { name: 1, _id: 0 } })
        .sort({ age: 1 })
        .toArray(),
    ).toEqual([{ name: 'ann' }, { name: 'cid' }]);
    expect(await c.find({ tags: 'b' }).sort({ _id: 1 }).toArray()).toHaveLength(2);
    const page = await c.find({}).sort({ age: 1, name: 1 }).skip(1).limit(2).toArray();
    expect(page.map((p) => p.name)).toEqual(['dee', 'ann']);
    expect(await c.findOne({ age: { $gt: 35 } })).toEqual(people[2]);
    expect(await c.findOne({ name: 'zed' })).toBeNull();
    expect(await c.countDocuments({ $or: [{ age: { $lt: 26 } }, { name: 'cid' }] })).toBe(3);
  });

  it('keeps find projections from altering stored documents', async () => {
    const c = t.db().collection<AnyDoc>('p');
    await c.insertOne({ _id: 1, a: { b: 1, c: 2 }, d: [1, 2, 3] });
    await c.find({}, { projection: { 'a.b': 1, d: { $slice: 1 } } }).toArray();
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: { b: 1, c: 2 }, d: [1, 2, 3] });
  });

  it('generates an ObjectId _id when the insert omits it, stored first', async () => {
    const db = t.db();
    const reply = await db.command({ insert: 'c', documents: [{ a: 1 }, { b: 2, _id: 'x' }] });
    expect(reply.n).toBe(2);
    const docs = await db.collection<AnyDoc>('c').find().toArray();
    expect(docs[0]!._id).toBeInstanceOf(ObjectId);
    expect(Object.keys(docs[1]!)).toEqual(['_id', 'b']);
  });

  it('reads an empty or missing collection as empty', async () => {
    const c = t.db().collection<AnyDoc>('nothing');
    expect(await c.find({}).toArray()).toEqual([]);
    expect(await c.findOne({})).toBeNull();
    expect(await c.countDocuments()).toBe(0);
  });
});

describe('update', () => {
  it('applies operators to one or many documents', async () => {
    const c = t.db().collection<Person>('people');
    await c.insertMany(people);
    const one = await c.updateOne({ age: 25 }, { $inc: { age: 1 }, $push: { tags: 'new' } });
    expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const many = await c.updateMany({ 'address.city': 'Oslo' }, { $set: { country: 'NO' }, $unset: { tags: '' } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect(await c.findOne({ _id: 3 })).toEqual({
      _id: 3,
      name: 'cid',
      age: 40,
      address: { city: 'Oslo' },
      country: 'NO',
    });
    const noop = await c.updateOne({ _id: 3 }, { $set: { country: 'NO' } });
    expect(noop).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    const none = await c.updateMany({ age: 99 }, { $set: { x: 1 } });
    expect(none).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });
  });

  it('replaces documents, keeping _id', async () => {
    const c = t.db().collection<AnyDoc>('r');
    await c.insertOne({ _id: 1, a: 1, b: 2 });
    const res = await c.replaceOne({ _id: 1 }, { c: 3 });
    expect(res.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, c: 3 });
    const err = await c.replaceOne({ _id: 1 }, { _id: 2, c: 3 }).catch((e: { code: number }) => e);
    expect(err).toMatchObject({ code: 66 });
    const setId = await c.updateOne({ _id: 1 }, { $set: { _id: 5 } }).catch((e: { code: number }) => e);
    expect(setId).toMatchObject({ code: 66 });
  });

  it('upserts with $setOnInsert and equality fields from the filter', async () => {
    const c = t.db().collection<AnyDoc>('u');
    const first = await c.updateOne(
      { email: 'a@x.io', plan: { $eq: 'pro' }, age: { $gt: 3 } },
      { $set: { seen: 1 }, $setOnInsert: { createdBy: 'upsert' } },
      { upsert: true },
    );
    expect(first.upsertedCount).toBe(1);
    expect(first.upsertedId).toBeInstanceOf(ObjectId);
    const doc = await c.findOne({ _id: first.upsertedId! });
    expect(doc).toEqual({ _id: first.upsertedId, email: 'a@x.io', plan: 'pro', seen: 1, createdBy: 'upsert' });

    const second = await c.updateOne(
      { email: 'a@x.io' },
      { $set: { seen: 2 }, $setOnInsert: { createdBy: 'other' } },
      { upsert: true },
    );
    expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect((await c.findOne({ email: 'a@x.io' }))!.createdBy).toBe('upsert');

    const withId = await c.updateOne({ _id: 'fixed', 'nested.k': 5 }, { $inc: { n: 1 } }, { upsert: true });
    expect(withId.upsertedId).toBe('fixed');
    expect(await c.findOne({ _id: 'fixed' })).toEqual({ _id: 'fixed', nested: { k: 5 }, n: 1 });

    const replaced = await c.replaceOne({ name: 'r' }, { name: 'r', v: 1 }, { upsert: true });
    expect(replaced.upsertedCount).toBe(1);
    expect(await c.countDocuments({ name: 'r' })).toBe(1);
  });

  it('runs pipeline-style updates', async () => {
    const c = t.db().collection<AnyDoc>('pipe');
    await c.insertOne({ _id: 1, a: 2, b: 3 });
    await c.updateOne({ _id: 1 }, [{ $set: { sum: { $add: ['$a', '$b'] } } }]);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: 2, b: 3, sum: 5 });
  });

  it('rejects unknown update operators per statement', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('c').insertOne({ _id: 1 });
    const reply = await db.command({ update: 'c', updates: [{ q: { _id: 1 }, u: { $frob: { a: 1 } } }] });
    expect(reply.ok).toBe(1);
    expect(reply.writeErrors[0]).toMatchObject({ index: 0, code: 9 });
  });
});

describe('delete and bulk writes', () => {
  it('deletes one or many', async () => {
    const db = t.db();
    const c = db.collection<AnyDoc>('people');
    await c.insertMany(people);
    expect((await c.deleteOne({ age: 25 })).deletedCount).toBe(1);
    expect((await c.deleteMany({ 'address.city': 'Oslo' })).deletedCount).toBe(2);
    expect((await c.deleteMany({ nope: 1 })).deletedCount).toBe(0);
    expect(await c.countDocuments()).toBe(1);
    const reply = await db.command({ delete: 'people', deletes: [{ q: {}, limit: 0 }] });
    expect(reply).toMatchObject({ n: 1, ok: 1 });
  });

  it('runs mixed bulk writes', async () => {
    const c = t.db().collection<AnyDoc>('bulk');
    const res = await c.bulkWrite([
      { insertOne: { document: { _id: 1, v: 1 } } },
      { insertOne: { document: { _id: 2, v: 2 } } },
      { updateOne: { filter: { _id: 1 }, update: { $set: { v: 10 } } } },
      { updateMany: { filter: {}, update: { $inc: { v: 1 } } } },
      { replaceOne: { filter: { _id: 3 }, replacement: { v: 3 }, upsert: true } },
      { deleteOne: { filter: { _id: 2 } } },
    ]);
    expect(res).toMatchObject({
      insertedCount: 2,
      matchedCount: 3,
      modifiedCount: 3,
      deletedCount: 1,
      upsertedCount: 1,
    });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 11 },
      { _id: 3, v: 3 },
    ]);
  });
});

describe('_id $in over a large batch', () => {
  it('matches the same documents as one lookup per id: numeric types alike, other conditions still applied', async () => {
    const c = t.db().collection<AnyDoc>('in_batch');
    const objectIds = Array.from({ length: 40 }, () => new ObjectId());
    await c.insertMany([
      ...objectIds.map((_id, i) => ({ _id, status: i % 2 ? 'pending' : 'sent' })),
      ...Array.from({ length: 40 }, (_, i) => ({ _id: i, status: 'pending' })),
    ]);
    const wanted = [...objectIds.slice(0, 30), 1.0, 2, 3, 'not-there'];
    const found = await c
      .find({ _id: { $in: wanted }, status: 'pending' })
      .sort({ _id: 1 })
      .toArray();
    const expected = [...objectIds.slice(0, 30).filter((_, i) => i % 2), 1, 2, 3];
    expect(found.map((doc) => String(doc._id)).sort()).toEqual(expected.map(String).sort());
    const updated = await c.updateMany({ _id: { $in: wanted }, status: 'pending' }, { $set: { status: 'claimed' } });
    expect(updated.modifiedCount).toBe(expected.length);
  });
});

describe('a field $in over a large batch', () => {
  it('matches scalar, array, missing and Long values as mongod does, in find and in a leading $match', async () => {
    const c = t.db().collection<AnyDoc>('field_in_batch');
    const lists = Array.from({ length: 30 }, () => new ObjectId());
    await c.insertMany([
      ...lists.map((listId, i) => ({ _id: `scalar-${i}`, listId })),
      { _id: 'array', listId: [new ObjectId(), lists[3]] },
      { _id: 'missing' },
      { _id: 'null', listId: null },
      { _id: 'other', listId: new ObjectId() },
      { _id: 'number', listId: 7 },
    ]);
    const wanted = [...lists.slice(0, 20), 7.0, null];
    const expected = [
      ...Array.from({ length: 20 }, (_, i) => `scalar-${i}`),
      'array',
      'missing',
      'null',
      'number',
    ].sort();
    const found = await c.find({ listId: { $in: wanted } }).toArray();
    expect(found.map((doc) => String(doc._id)).sort()).toEqual(expected);
    const grouped = await c
      .aggregate([{ $match: { listId: { $in: wanted } } }, { $group: { _id: null, n: { $sum: 1 } } }])
      .toArray();
    expect(grouped).toEqual([{ _id: null, n: expected.length }]);
  });
});
