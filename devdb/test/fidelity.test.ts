import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

const codeOf = (e: { code?: number }) => e.code;

describe('updates with aggregation pipelines', () => {
  it('runs $set/$addFields, $unset and $replaceWith/$replaceRoot stages', async () => {
    const c = t.db().collection<AnyDoc>('p');
    await c.insertOne({ _id: 1, a: 1, b: 2, t: { u: 5 } });
    await c.updateOne({ _id: 1 }, [{ $set: { sum: { $add: ['$a', '$b'] } } }, { $addFields: { x: 1 } }]);
    await c.updateOne({ _id: 1 }, [{ $unset: ['a', 'x'] }]);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, b: 2, t: { u: 5 }, sum: 3 });
    // The new root has no _id, so the old one stays, as mongod does.
    const res = await c.updateOne({ _id: 1 }, [{ $replaceRoot: { newRoot: '$t' } }, { $replaceWith: { v: '$u' } }]);
    expect(res).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, v: 5 });
  });

  it('counts an update that changes nothing as unmodified and refuses other stages', async () => {
    const c = t.db().collection<AnyDoc>('p');
    await c.insertOne({ _id: 1, a: 1 });
    expect((await c.updateOne({ _id: 1 }, [{ $set: { a: 1 } }])).modifiedCount).toBe(0);
    expect(await c.updateOne({ _id: 1 }, [{ $match: {} }]).catch(codeOf)).toBe(72);
    expect(await c.updateOne({ _id: 1 }, [{ $set: { _id: 2 } }]).catch(codeOf)).toBe(66);
  });

  it('upserts through a pipeline', async () => {
    const c = t.db().collection<AnyDoc>('p');
    await c.updateOne({ _id: 7 }, [{ $set: { n: { $literal: '$x' } } }], { upsert: true });
    expect(await c.findOne({ _id: 7 })).toEqual({ _id: 7, n: '$x' });
  });
});

describe('_id null', () => {
  it('stores, finds, updates and deletes a document whose _id is null, once', async () => {
    const db = t.db();
    // Raw command: the Node driver replaces a null _id with an ObjectId client-side (mongodb/lib/utils.js).
    expect(await db.command({ insert: 'n', documents: [{ _id: null, a: 1 }] })).toMatchObject({ n: 1 });
    const c = db.collection<AnyDoc>('n');
    expect(await c.countDocuments({ _id: { $type: 'null' } })).toBe(1);
    const dup = await db.command({ insert: 'n', documents: [{ _id: null }] });
    expect(dup.writeErrors[0].code).toBe(11000);
    await c.updateOne({ _id: null as never }, { $set: { a: 2 } });
    expect(await c.findOne({ _id: null as never })).toEqual({ _id: null, a: 2 });
    expect((await c.deleteOne({ _id: null as never })).deletedCount).toBe(1);
  });
});

describe('dotted and $-prefixed field names (MongoDB 5.0+ rules)', () => {
  it('accepts dotted keys and $-prefixed keys below and at the top level of inserts', async () => {
    const db = t.db();
    const docs = [{ _id: 1, 'a.b': 1 }, { _id: 2, $a: 1 }, { _id: 3, a: { $b: 1, 'c.d': 2 } }, { _id: { 'x.y': 1 } }];
    expect(await db.command({ insert: 'd', documents: docs })).toMatchObject({ n: 4 });
    expect(
      await db
        .collection<AnyDoc>('d')
        .find({ _id: { $in: [1, 2, 3] } })
        .toArray(),
    ).toEqual(docs.slice(0, 3));
  });

  it('refuses $-prefixed keys inside _id with code 52', async () => {
    const reply = await t.db().command({ insert: 'd', documents: [{ _id: { $a: 1 } }] });
    expect(reply.writeErrors[0]).toMatchObject({ code: 52 });
  });

  it('refuses $-prefixed top-level fields in replacements and $-prefixed paths in update operators', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('d').insertOne({ _id: 1 });
    const replace = await db.command({ update: 'd', updates: [{ q: { _id: 1 }, u: { x: 1, $a: 1 } }] });
    expect(replace.writeErrors[0]).toMatchObject({ code: 52 });
    const set = await db.command({ update: 'd', updates: [{ q: { _id: 1 }, u: { $set: { 'a.$b': 1 } } }] });
    expect(set.writeErrors[0]).toMatchObject({ code: 52 });
    // $setField in a pipeline is how 5.0+ creates such fields.
    const field = { $setField: { field: { $literal: '$a' }, value: 1, input: '$$ROOT' } };
    await db.collection<AnyDoc>('d').updateOne({ _id: 1 }, [{ $replaceWith: field }]);
    expect(await db.collection<AnyDoc>('d').findOne({ _id: 1 })).toEqual({ _id: 1, $a: 1 });
  });
});

describe('sort on update statements', () => {
  it('is refused as a 7.0 server does (40415), while findAndModify keeps its sort', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('s').insertMany([{ _id: 1 }, { _id: 2 }]);
    const cmd = { update: 's', updates: [{ q: {}, u: { $set: { x: 1 } }, sort: { _id: -1 } }] };
    expect(await db.command(cmd).catch(codeOf)).toBe(40415);
    const doc = await db.collection<AnyDoc>('s').findOneAndUpdate({}, { $set: { x: 1 } }, { sort: { _id: -1 } });
    expect(doc).toEqual({ _id: 2 });
  });
});

describe('let', () => {
  it('evaluates let values as expressions', async () => {
    const c = t.db().collection<AnyDoc>('l');
    await c.insertOne({ _id: 1, x: 'bar' });
    const found = await c.find({ $expr: { $eq: ['$x', '$$v'] } }, { let: { v: { $concat: ['b', 'ar'] } } }).toArray();
    expect(found).toHaveLength(1);
    const lit = await c.aggregate([{ $project: { y: '$$v' } }], { let: { v: { $literal: '$x' } } }).toArray();
    expect(lit).toEqual([{ _id: 1, y: '$x' }]);
  });
});
