import { Binary, Decimal128, Double, Int32, Long, ObjectId, Timestamp, UUID } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

describe('BSON types', () => {
  it('round-trips values losslessly', async () => {
    const c = t.db().collection<AnyDoc>('types');
    const doc = {
      _id: new ObjectId(),
      date: new Date('2024-02-29T12:34:56.789Z'),
      big: Long.fromString('9007199254740993'),
      small: Long.fromNumber(7),
      dec: Decimal128.fromString('1234.5600'),
      bin: new Binary(Buffer.from([0, 1, 2, 255]), 0),
      uuid: new UUID('3b241101-e2bb-4255-8caf-4136c566a962'),
      ts: new Timestamp({ t: 1700000000, i: 3 }),
      int: 42,
      dbl: 1.5,
      nested: { deep: { list: [1, 'two', { three: 3 }, [4]] } },
      nul: null,
      flag: true,
      re: /ab+c/i,
    };
    await c.insertOne(doc);
    const back = await c.findOne({ _id: doc._id }, { useBigInt64: true, promoteValues: true });
    expect(back!.big).toBe(9007199254740993n);
    expect(back!.small).toBe(7n);
    expect(back!.dec).toBeInstanceOf(Decimal128);
    expect(back!.dec.toString()).toBe('1234.5600');
    expect(back!.bin.sub_type).toBe(0);
    expect(Buffer.from(back!.bin.buffer)).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(back!.uuid.toHexString(true)).toBe('3b241101-e2bb-4255-8caf-4136c566a962');
    expect(back!.ts).toEqual(doc.ts);
    expect(back!.date).toEqual(doc.date);
    expect(back!.nested).toEqual(doc.nested);
    expect(back!.re).toEqual(/ab+c/i);
    expect(Object.keys(back!)).toEqual(Object.keys(doc));

    const raw = await c.findOne({ _id: doc._id }, { promoteValues: false });
    expect(raw!.int).toBeInstanceOf(Int32);
    expect(raw!.dbl).toBeInstanceOf(Double);
  });

  it('matches ObjectIds by value, including $in and ranges', async () => {
    const c = t.db().collection<AnyDoc>('oids');
    const ids = [new ObjectId(), new ObjectId(), new ObjectId()];
    await c.insertMany(ids.map((_id, n) => ({ _id, n, ref: _id })));
    const copy = (id: ObjectId) => new ObjectId(id.toHexString());
    expect((await c.findOne({ _id: copy(ids[1]!) }))!.n).toBe(1);
    expect((await c.findOne({ ref: copy(ids[2]!) }))!.n).toBe(2);
    const some = await c.find({ _id: { $in: [copy(ids[0]!), copy(ids[2]!)] } }).toArray();
    expect(some.map((d) => d.n).sort()).toEqual([0, 2]);
    expect(await c.countDocuments({ _id: { $gt: ids[0]! } })).toBe(2);
    expect(await c.countDocuments({ _id: { $ne: copy(ids[0]!) } })).toBe(2);
    const desc = await c.find().sort({ _id: -1 }).toArray();
    expect(desc.map((d) => d.n)).toEqual([2, 1, 0]);
    await c.createIndex({ ref: 1 });
    expect((await c.findOne({ ref: copy(ids[0]!) }))!.n).toBe(0);
    expect(await c.countDocuments({ ref: { $in: [copy(ids[0]!), copy(ids[1]!)] } })).toBe(2);
  });

  it('compares and sorts Dates', async () => {
    const c = t.db().collection<AnyDoc>('dates');
    const base = Date.UTC(2024, 0, 1);
    await c.insertMany([3, 1, 4, 2].map((d) => ({ _id: d, at: new Date(base + d * 86_400_000) })));
    const inRange = await c
      .find({ at: { $gte: new Date(base + 2 * 86_400_000), $lt: new Date(base + 4 * 86_400_000) } })
      .sort({ at: 1 })
      .toArray();
    expect(inRange.map((d) => d._id)).toEqual([2, 3]);
    expect((await c.find().sort({ at: -1 }).toArray()).map((d) => d._id)).toEqual([4, 3, 2, 1]);
    expect((await c.findOne({ at: new Date(base + 86_400_000) }))!._id).toBe(1);
    await c.updateOne({ _id: 1 }, { $max: { at: new Date(base + 10 * 86_400_000) } });
    expect((await c.find().sort({ at: -1 }).limit(1).toArray())[0]!._id).toBe(1);
  });

  it('stores Long and Decimal128 values that compare equal', async () => {
    const c = t.db().collection<AnyDoc>('nums');
    await c.insertOne({ _id: 1, l: Long.fromNumber(5), d: Decimal128.fromString('2.50') });
    expect(await c.countDocuments({ l: Long.fromNumber(5) })).toBe(1);
    expect(await c.countDocuments({ d: Decimal128.fromString('2.50') })).toBe(1);
  });
});
