import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { firstSorted } from '../src/first-sorted.js';
import { type AnyDoc, useTestServer } from './helpers.js';

// Pages sorted on an ObjectId or Date, and filters on ids, `$in` and ranges, take plain comparisons instead of
// mingo over every document (src/first-sorted.ts, src/field-tests.ts); these pin that the answers stay mongod's.

const t = useTestServer();

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const ids: ObjectId[] = Array.from({ length: 6 }, (_, i) => new ObjectId(`65a0000000000000000000${String(10 + i)}`));
const hex3 = ids[3]!.toHexString();

describe('a sorted page', () => {
  it('keeps documents tied on the sort key in stored order across the page edge, with skip', async () => {
    const c = t.db().collection<AnyDoc>('posts');
    // Minutes 3, 1, 2, 2, 2, 0: the page of 3 ends inside the run of three ties.
    await c.insertMany([3, 1, 2, 2, 2, 0].map((minute, i) => ({ _id: i, at: at(minute) })));
    expect((await c.find({}).sort({ at: -1 }).limit(3).toArray()).map((d) => d._id)).toEqual([0, 2, 3]);
    expect((await c.find({}).sort({ at: 1 }).skip(1).limit(3).toArray()).map((d) => d._id)).toEqual([1, 2, 3]);
  });

  it('orders ObjectIds by their bytes and falls back to BSON type order when a value is of another type', async () => {
    const c = t.db().collection<AnyDoc>('posts');
    await c.insertMany([ids[2], ids[0], ids[5], ids[1]].map((ref, i) => ({ _id: i, ref })));
    expect((await c.find({}).sort({ ref: -1 }).limit(2).toArray()).map((d) => d._id)).toEqual([2, 0]);
    await c.insertOne({ _id: 9, ref: 'a string sorts before an ObjectId' });
    expect((await c.find({}).sort({ ref: 1 }).limit(2).toArray()).map((d) => d._id)).toEqual([9, 1]);
    await c.insertOne({ _id: 10 });
    expect((await c.find({}).sort({ ref: 1 }).limit(1).toArray()).map((d) => d._id)).toEqual([10]);
  });

  it('narrows to the documents that can be on the page, ties included', () => {
    const docs = [3, 1, 2, 2, 2, 0].map((minute, i) => ({ _id: i, at: at(minute) }));
    expect(firstSorted(docs, { at: -1 }, 2)?.map((d) => d._id)).toEqual([0, 2, 3, 4]);
    expect(firstSorted(docs, { at: 1 }, 1)?.map((d) => d._id)).toEqual([5]);
    expect(firstSorted(docs, { at: 1, _id: 1 }, 1)).toBeUndefined();
    expect(firstSorted([...docs, { _id: 6, at: 'soon' }], { at: 1 }, 1)).toBeUndefined();
  });
});

describe('filters on ids, $in and ranges', () => {
  it('match scalars by value and arrays, documents and other types as mongod does', async () => {
    const c = t.db().collection<AnyDoc>('posts');
    await c.insertMany([
      { _id: 1, userId: ids[0], at: at(1) },
      { _id: 2, userId: [ids[1], ids[2]], at: [at(5), at(9)] },
      { _id: 3, userId: hex3, at: at(1).toISOString() },
      { _id: 4, userId: ids[4], at: at(7) },
      { _id: 5 },
    ]);
    const found = async (filter: object) =>
      (
        await c
          .find(filter as never)
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => d._id);
    expect(await found({ userId: ids[2] })).toEqual([2]);
    expect(await found({ userId: { $in: [ids[0], ids[1], ids[3]] } })).toEqual([1, 2]);
    expect(await found({ userId: { $in: [hex3, null] } })).toEqual([3, 5]);
    expect(await found({ userId: { $lt: ids[2] } })).toEqual([1, 2]);
    expect(await found({ userId: { $gte: ids[2], $lte: ids[4] } })).toEqual([2, 4]);
    expect(await found({ at: { $gt: at(6) } })).toEqual([2, 4]);
    expect(await found({ at: { $lte: at(1) }, _id: { $in: [1, 3] } })).toEqual([1]);
  });
});
