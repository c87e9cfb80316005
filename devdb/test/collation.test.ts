import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

const ci = { locale: 'en', strength: 2 };
const base = { locale: 'en_US', strength: 1 };

async function people() {
  const c = t.db().collection<AnyDoc>('people');
  await c.insertMany([
    { _id: 1, email: 'Bob@x.com', name: 'Éva' },
    { _id: 2, email: 'bob@x.com', name: 'eva' },
    { _id: 3, email: 'ann@x.com', name: 'Ann' },
  ]);
  return c;
}

describe('collation strength 1 and 2', () => {
  it('matches case-insensitively in find and findOne, exactly without a collation', async () => {
    const c = await people();
    expect(await c.find({ email: 'BOB@X.COM' }).toArray()).toEqual([]);
    const found = await c.find({ email: 'BOB@X.COM' }, { collation: ci }).sort({ _id: 1 }).toArray();
    expect(found.map((d) => d._id)).toEqual([1, 2]);
    expect(await c.findOne({ email: { $in: ['ANN@x.com'] } }, { collation: ci })).toMatchObject({ _id: 3 });
  });

  it('ignores accents only at strength 1', async () => {
    const c = await people();
    expect(await c.countDocuments({ name: 'EVA' }, { collation: ci })).toBe(1);
    expect(await c.countDocuments({ name: 'EVA' }, { collation: base })).toBe(2);
  });

  it('applies to count, distinct and aggregate $match', async () => {
    const c = await people();
    expect(await c.countDocuments({ email: 'bob@X.com' }, { collation: ci })).toBe(2);
    expect(await c.distinct('email', {}, { collation: ci })).toEqual(['ann@x.com', 'Bob@x.com']);
    const agg = await c.aggregate([{ $match: { email: 'BOB@x.com' } }, { $count: 'n' }], { collation: ci }).toArray();
    expect(agg).toEqual([{ n: 2 }]);
  });

  it('applies to updates, deletes and findAndModify', async () => {
    const c = await people();
    expect(
      (await c.updateMany({ email: 'BOB@X.COM' }, { $set: { seen: true } }, { collation: ci })).modifiedCount,
    ).toBe(2);
    const doc = await c.findOneAndUpdate(
      { email: 'ANN@X.COM' },
      { $set: { seen: true } },
      { collation: ci, returnDocument: 'after' },
    );
    expect(doc).toMatchObject({ _id: 3, seen: true });
    expect((await c.deleteOne({ email: 'BOB@X.COM' }, { collation: ci })).deletedCount).toBe(1);
    expect((await c.deleteMany({ email: 'BOB@X.COM' }, { collation: ci })).deletedCount).toBe(1);
    expect(await c.countDocuments()).toBe(1);
  });

  it('makes Bob@x.com and bob@x.com collide in a unique index with strength 2', async () => {
    const c = t.db().collection<AnyDoc>('users');
    await c.createIndex({ email: 1 }, { unique: true, collation: ci });
    await c.insertOne({ email: 'Bob@x.com' });
    const err = await c.insertOne({ email: 'bob@x.com' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 11000, keyValue: { email: 'bob@x.com' } });
    // Without the collation the index would not see the case variants as one key.
    const plain = t.db().collection<AnyDoc>('plain');
    await plain.createIndex({ email: 1 }, { unique: true });
    await plain.insertMany([{ email: 'Bob@x.com' }, { email: 'bob@x.com' }]);
    const [spec] = (await c.listIndexes().toArray()).filter((i) => i.name === 'email_1');
    expect(spec).toMatchObject({ unique: true, collation: ci });
  });

  it('refuses to build a case-insensitive unique index over case variants', async () => {
    const c = await people();
    const err = await c.createIndex({ email: 1 }, { unique: true, collation: ci }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 11000 });
  });

  it("uses the collection's default collation for queries and new indexes", async () => {
    const db = t.db();
    const c = await db.createCollection<AnyDoc>('c', { collation: ci });
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'Bob@x.com' });
    expect(await c.countDocuments({ email: 'BOB@x.com' })).toBe(1);
    expect(await c.insertOne({ email: 'bob@X.com' }).catch((e: { code: number }) => e.code)).toBe(11000);
  });

  it('sorts with an ICU locale id such as en_US', async () => {
    const c = await people();
    const sorted = await c
      .find({}, { collation: { locale: 'en_US', strength: 2 } })
      .sort({ email: 1 })
      .toArray();
    expect(sorted[0]!._id).toBe(3);
  });
});
