import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

async function shop() {
  const db = t.db();
  await db.collection<AnyDoc>('users').insertMany([
    { _id: 1, name: 'ann', city: 'Oslo' },
    { _id: 2, name: 'bob', city: 'Rome' },
  ]);
  await db.collection<AnyDoc>('orders').insertMany([
    { _id: 10, user: 1, total: 30, items: ['a', 'b'] },
    { _id: 11, user: 1, total: 12, items: ['b'] },
    { _id: 12, user: 2, total: 50, items: ['c', 'a'] },
    { _id: 13, user: 3, total: 5, items: [] },
  ]);
  return db;
}

describe('count and distinct', () => {
  it('counts with query, skip and limit', async () => {
    const db = await shop();
    const orders = db.collection<AnyDoc>('orders');
    expect(await orders.estimatedDocumentCount()).toBe(4);
    expect(await orders.countDocuments({ total: { $gt: 10 } })).toBe(3);
    expect(await orders.countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect((await db.command({ count: 'orders', query: { user: 1 } })).n).toBe(2);
    expect((await db.command({ count: 'orders', query: {}, skip: 3, limit: 5 })).n).toBe(1);
    expect((await db.command({ count: 'missing' })).n).toBe(0);
  });

  it('returns distinct values, unwinding arrays', async () => {
    const db = await shop();
    const orders = db.collection<AnyDoc>('orders');
    expect(await orders.distinct('items')).toEqual(['a', 'b', 'c']);
    expect(await orders.distinct('user', { total: { $gte: 12 } })).toEqual([1, 2]);
    expect(await db.collection<AnyDoc>('users').distinct('city')).toEqual(['Oslo', 'Rome']);
  });
});

describe('aggregate', () => {
  it('runs $match/$group/$sort/$project', async () => {
    const db = await shop();
    const res = await db
      .collection<AnyDoc>('orders')
      .aggregate([
        { $match: { total: { $gte: 10 } } },
        { $group: { _id: '$user', spent: { $sum: '$total' }, n: { $sum: 1 } } },
        { $sort: { spent: -1 } },
        { $project: { _id: 0, user: '$_id', spent: 1, n: 1 } },
      ])
      .toArray();
    expect(res).toEqual([
      { spent: 50, n: 1, user: 2 },
      { spent: 42, n: 2, user: 1 },
    ]);
  });

  it('joins with $lookup and $unwind without touching stored documents', async () => {
    const db = await shop();
    const res = await db
      .collection<AnyDoc>('orders')
      .aggregate([
        { $match: { _id: 10 } },
        { $lookup: { from: 'users', localField: 'user', foreignField: '_id', as: 'buyer' } },
        { $unwind: '$buyer' },
        { $set: { 'buyer.city': 'changed' } },
        { $project: { total: 1, 'buyer.name': 1, 'buyer.city': 1 } },
      ])
      .toArray();
    expect(res).toEqual([{ _id: 10, total: 30, buyer: { name: 'ann', city: 'changed' } }]);
    expect(await db.collection<AnyDoc>('users').findOne({ _id: 1 })).toEqual({ _id: 1, name: 'ann', city: 'Oslo' });
    await db
      .collection<AnyDoc>('orders')
      .aggregate([{ $addFields: { total: 0, 'x.y': 1 } }])
      .toArray();
    expect(await db.collection<AnyDoc>('orders').findOne({ _id: 10 })).toEqual({
      _id: 10,
      user: 1,
      total: 30,
      items: ['a', 'b'],
    });
  });

  it('runs a $lookup pipeline with localField/foreignField over the matches only, each run on copies', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('crews').insertMany([
      { _id: 1, name: 'x', meta: { runs: 0 } },
      { _id: 2, name: 'y', meta: { runs: 0 } },
      { _id: 3, name: ['z', 'x'], meta: { runs: 0 } },
      { _id: 4, meta: { runs: 0 } },
      { _id: 5, name: null, meta: { runs: 0 } },
    ]);
    await db
      .collection<AnyDoc>('riders')
      .insertMany([
        { _id: 'a', crew: ['x', 'y', 'nobody'] },
        { _id: 'b', crew: 'z' },
        { _id: 'c' },
        { _id: 'd', crew: 'nobody' },
      ]);
    const lookup = {
      from: 'crews',
      localField: 'crew',
      foreignField: 'name',
      let: { rider: '$_id' },
      // The set counts runs over one copy: a pipeline changing the matches must not change them for the next rider.
      pipeline: [
        { $sort: { _id: 1 } },
        { $set: { 'meta.runs': { $add: ['$meta.runs', 1] } } },
        { $addFields: { rider: '$$rider' } },
      ],
      as: 'crews',
    };
    const crews = (rows: AnyDoc[]) =>
      rows.map((r) => [r._id, r.crews.map((c: AnyDoc) => [c._id, c.rider, c.meta.runs])]);
    const top = await db
      .collection<AnyDoc>('riders')
      .aggregate([{ $lookup: lookup }, { $sort: { _id: 1 } }])
      .toArray();
    // An array local value matches any element (foreign arrays too), a missing one matches null and missing.
    const expected = [
      [
        'a',
        [
          [1, 'a', 1],
          [2, 'a', 1],
          [3, 'a', 1],
        ],
      ],
      ['b', [[3, 'b', 1]]],
      [
        'c',
        [
          [4, 'c', 1],
          [5, 'c', 1],
        ],
      ],
      ['d', []],
    ];
    expect(crews(top)).toEqual(expected);
    // The same inside a $facet and inside another $lookup's pipeline.
    const [faceted] = await db
      .collection<AnyDoc>('riders')
      .aggregate([{ $facet: { all: [{ $lookup: lookup }, { $sort: { _id: 1 } }] } }])
      .toArray();
    expect(crews(faceted!.all)).toEqual(expected);
    const [outer] = await db
      .collection<AnyDoc>('crews')
      .aggregate([
        { $match: { _id: 1 } },
        { $lookup: { from: 'riders', pipeline: [{ $lookup: lookup }, { $sort: { _id: 1 } }], as: 'riders' } },
      ])
      .toArray();
    expect(crews(outer!.riders)).toEqual(expected);
    // Without localField/foreignField each rider's run sees every crew, still unchanged by the runs before.
    const uncorrelated = await db
      .collection<AnyDoc>('riders')
      .aggregate([
        { $lookup: { from: 'crews', let: lookup.let, pipeline: lookup.pipeline, as: 'crews' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(
      crews(uncorrelated).map(([id, list]) => [id, list.map(([, rider, runs]: unknown[]) => [rider, runs])]),
    ).toEqual(['a', 'b', 'c', 'd'].map((id) => [id, Array.from({ length: 5 }, () => [id, 1])]));
    // Without a pipeline the matches are the same documents.
    const plain = await db
      .collection<AnyDoc>('riders')
      .aggregate([
        { $lookup: { from: 'crews', localField: 'crew', foreignField: 'name', as: 'crews' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(plain.map((r) => [r._id, r.crews.map((c: AnyDoc) => c._id).sort()])).toEqual(
      expected.map(([id, list]) => [id, (list as number[][]).map(([crew]) => crew)]),
    );
  });

  it('writes a nested path into its own copy of an object other documents share', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('crews').insertOne({ _id: 1, meta: { runs: 0 } });
    await db.collection<AnyDoc>('riders').insertMany([
      { _id: 'a', crew: 1 },
      { _id: 'b', crew: 1 },
    ]);
    const bump = { $set: { 'crew.meta.runs': { $add: ['$crew.meta.runs', 1] } } };
    // Both riders join the same crew document: each bumps its own.
    const joined = await db
      .collection<AnyDoc>('riders')
      .aggregate([
        { $lookup: { from: 'crews', localField: 'crew', foreignField: '_id', as: 'crew' } },
        { $unwind: '$crew' },
        bump,
      ])
      .toArray();
    expect(joined.map((r) => r.crew.meta.runs)).toEqual([1, 1]);
    expect(await db.collection<AnyDoc>('crews').findOne({ _id: 1 })).toEqual({ _id: 1, meta: { runs: 0 } });
  });

  it('runs a $unionWith sub-pipeline led by $match as mingo does, without touching stored documents', async () => {
    const db = await shop();
    const wanted = [12, 13, ...Array.from({ length: 40 }, (_, i) => 1000 + i)];
    const union = (pipeline: AnyDoc[]) =>
      db
        .collection<AnyDoc>('users')
        .aggregate([
          { $match: { _id: 1 } },
          { $unionWith: { coll: 'orders', pipeline } },
          { $set: { 'nested.mark': 'changed', total: -1 } },
          { $sort: { _id: 1 } },
        ])
        .toArray();
    // The prefiltered path (leading $match with a large $in, then a second $match and a later stage)...
    const fast = await union([
      { $match: { _id: { $in: wanted } } },
      { $match: { total: { $gte: 5 } } },
      { $project: { user: 1 } },
    ]);
    // ...answers as mingo's own path does (a sub-pipeline that starts with another stage).
    const slow = await union([
      { $addFields: {} },
      { $match: { _id: { $in: wanted } } },
      { $match: { total: { $gte: 5 } } },
      { $project: { user: 1 } },
    ]);
    expect(fast).toEqual(slow);
    expect(fast.map((d) => d._id)).toEqual([1, 12, 13]);
    expect(await db.collection<AnyDoc>('orders').findOne({ _id: 12 })).toEqual({
      _id: 12,
      user: 2,
      total: 50,
      items: ['c', 'a'],
    });
    // Without a later stage the matched documents themselves flow on: still copies.
    await db
      .collection<AnyDoc>('users')
      .aggregate([
        { $match: { _id: 0 } },
        { $unionWith: { coll: 'orders', pipeline: [{ $match: { user: 1 } }] } },
        { $set: { 'items.0': 'z', total: 0 } },
      ])
      .toArray();
    expect(await db.collection<AnyDoc>('orders').findOne({ _id: 10 })).toEqual({
      _id: 10,
      user: 1,
      total: 30,
      items: ['a', 'b'],
    });
    // A missing collection unions nothing.
    const none = await db
      .collection<AnyDoc>('users')
      .aggregate([{ $unionWith: { coll: 'missing', pipeline: [{ $match: { a: 1 } }] } }])
      .toArray();
    expect(none).toHaveLength(2);
  });

  it("applies the command's collation to a $unionWith sub-pipeline's leading $match", async () => {
    const db = await shop();
    const res = await db
      .collection<AnyDoc>('orders')
      .aggregate([{ $match: { _id: 0 } }, { $unionWith: { coll: 'users', pipeline: [{ $match: { name: 'ANN' } }] } }], {
        collation: { locale: 'en', strength: 2 },
      })
      .toArray();
    expect(res).toEqual([{ _id: 1, name: 'ann', city: 'Oslo' }]);
  });

  it('supports database-level pipelines and refuses $out before the last stage', async () => {
    const db = await shop();
    const docs = await db.aggregate([{ $documents: [{ a: 1 }, { a: 2 }] }, { $match: { a: 2 } }]).toArray();
    expect(docs).toEqual([{ a: 2 }]);
    const err = await db
      .collection<AnyDoc>('orders')
      .aggregate([{ $out: 'copy' }, { $match: {} }])
      .toArray()
      .catch((e: { code: number }) => e);
    expect(err).toMatchObject({ code: 40601 });
    const noCursor = await db.command({ aggregate: 'orders', pipeline: [] }).catch((e: { code: number }) => e);
    expect(noCursor).toMatchObject({ code: 9 });
  });

  it('aggregates an empty or missing collection', async () => {
    const db = t.db();
    expect(
      await db
        .collection<AnyDoc>('none')
        .aggregate([{ $group: { _id: null, n: { $sum: 1 } } }])
        .toArray(),
    ).toEqual([]);
  });
});
