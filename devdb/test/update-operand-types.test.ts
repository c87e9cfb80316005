import { type Document, Long } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

// Update operators refuse a stored value of the wrong type as mongod does, rather than skipping the field: a
// counter kept as text under `$inc`, an object under `$push`.

const t = useTestServer();

async function seeded() {
  const c = t.db().collection<AnyDoc>('docs');
  await c.insertOne({ _id: 1, text: '5', object: { a: 1 }, nothing: null, long: Long.fromNumber(2), list: [1], n: 1 });
  return c;
}

describe('update operand types', () => {
  it('refuses $inc and $mul on a non-numeric value with TypeMismatch, and changes nothing', async () => {
    const c = await seeded();
    const updates: Document[] = [{ $inc: { text: 1 } }, { $inc: { nothing: 1 } }, { $mul: { object: 2 } }];
    for (const update of updates) {
      await expect(c.updateOne({ _id: 1 }, update)).rejects.toMatchObject({ code: 14 });
    }
    await expect(c.updateOne({ _id: 1 }, { $inc: { text: 1 }, $set: { n: 9 } })).rejects.toMatchObject({ code: 14 });
    expect(await c.findOne({ _id: 1 })).toMatchObject({ text: '5', n: 1 });
  });

  it('adds to a number, a nested number and a missing field', async () => {
    const c = await seeded();
    await c.updateOne({ _id: 1 }, { $inc: { n: 1, missing: 3, 'object.a': 1 } });
    expect(await c.findOne({ _id: 1 })).toMatchObject({ n: 2, missing: 3, object: { a: 2 } });
  });

  it('refuses $push and $addToSet on a non-array value with BadValue, and $pull likewise', async () => {
    const c = await seeded();
    const updates: Document[] = [{ $push: { object: 2 } }, { $addToSet: { text: 'x' } }, { $pull: { object: 1 } }];
    for (const update of updates) {
      await expect(c.updateOne({ _id: 1 }, update)).rejects.toMatchObject({ code: 2 });
    }
    const push: Document = { $push: { list: 2, fresh: 1 } };
    await c.updateOne({ _id: 1 }, push);
    expect(await c.findOne({ _id: 1 })).toMatchObject({ list: [1, 2], fresh: [1] });
  });

  it('refuses the whole updateMany write on the first such document, as an ordered write does', async () => {
    const c = t.db().collection<AnyDoc>('many');
    await c.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 'two' },
    ]);
    await expect(c.updateMany({}, { $inc: { n: 1 } })).rejects.toMatchObject({ code: 14 });
  });
});
