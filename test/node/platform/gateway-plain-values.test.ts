import { Binary, BSON, Decimal128, Int32, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { encodeOptions, encodeResult, encodeValues, uncarry } from '../../../durable-objects/db-gateway-codec';
import { NOT_PLAIN, plainCopy, revivePlain } from '../../../durable-objects/db-gateway-plain';

// The gateway's plain path must hand the driver what the BSON path hands it: both are compared here, over a clone.
const acrossRpc = (carried: ReturnType<typeof encodeValues>) => uncarry(structuredClone(carried));
const throughBson = (value: unknown, ignoreUndefined = false) =>
  BSON.deserialize(BSON.serialize({ v: value }, { ignoreUndefined }), { promoteLongs: false, promoteValues: true }).v;

describe('values crossing the database gateway plain', () => {
  const id = new ObjectId();
  const event = {
    _id: id,
    name: 'spot_viewed',
    at: new Date('2026-03-04T05:06:07.089Z'),
    count: 3,
    ratio: 0.25,
    big: 2 ** 40,
    negativeZero: -0,
    flag: false,
    userId: null,
    missing: undefined,
    properties: { spotId: new ObjectId().toHexString(), ids: [new ObjectId(), null, 'x'] },
    nested: Object.assign(Object.create(null), { deep: [{ k: 1 }] }),
  };

  it('carries strings, numbers, booleans, null, dates, ObjectIds, arrays and plain objects as the BSON path does', () => {
    const carried = encodeValues([event, { name: { $in: ['a', 'b'] } }]);
    expect('plain' in carried).toBe(true);
    const back = acrossRpc(carried) as unknown[];
    expect(back).toEqual(throughBson([event, { name: { $in: ['a', 'b'] } }]));
    expect((back[0] as { _id: ObjectId })._id).toBeInstanceOf(ObjectId);
    expect((back[0] as { _id: ObjectId })._id.equals(id)).toBe(true);
    expect(Object.is((back[0] as { negativeZero: number }).negativeZero, -0)).toBe(true);
    // Key order is kept: a sort's order is its keys'.
    expect(Object.keys(back[0] as object)).toEqual(Object.keys(event));
  });

  it('stores undefined as null in values and leaves its key out of the options, as BSON encoding does', () => {
    expect((acrossRpc(encodeValues([{ a: undefined, b: [undefined] }])) as unknown[])[0]).toEqual({
      a: null,
      b: [null],
    });
    const options = acrossRpc(encodeOptions({ ordered: false, session: undefined, sort: { at: -1 } }));
    expect(options).toEqual({ ordered: false, sort: { at: -1 } });
    expect(Object.keys(options as object)).toEqual(['ordered', 'sort']);
  });

  it('sends as BSON any value holding another type, so Long, Decimal128, Binary and Int32 keep their class', () => {
    for (const odd of [
      Long.fromNumber(5),
      Decimal128.fromString('1.5'),
      new Binary(new Uint8Array([1]), 4),
      new Int32(7),
    ]) {
      expect(plainCopy({ a: [{ odd }] })).toBe(NOT_PLAIN);
      const carried = encodeValues([{ a: [{ odd }] }]);
      expect('bson' in carried).toBe(true);
      expect(acrossRpc(carried)).toEqual(throughBson([{ a: [{ odd }] }]));
    }
    for (const odd of [/x/i, new Map([['a', 1]]), new Uint8Array([1]), 1n, () => 1, Symbol('s')])
      expect(plainCopy({ odd })).toBe(NOT_PLAIN);
    class Point {
      x = 1;
    }
    expect(plainCopy({ at: new Point() })).toBe(NOT_PLAIN);
  });

  it('never sends plain a value a marker could be mistaken for, nor one with a __proto__ or _bsontype key', () => {
    expect(plainCopy({ ref: { $oid: id.toHexString() } })).toBe(NOT_PLAIN);
    const sneaky = JSON.parse('{"__proto__": {"polluted": true}}');
    expect(plainCopy(sneaky)).toBe(NOT_PLAIN);
    expect(plainCopy({ a: { _bsontype: 'ObjectId' } })).toBe(NOT_PLAIN);
    expect(acrossRpc(encodeValues([{ ref: { $oid: 'abc' } }]))).toEqual([{ ref: { $oid: 'abc' } }]);
  });

  it('copies: the caller keeps its own objects, ObjectIds included', () => {
    const doc = { _id: id, tags: ['a'] };
    const copy = plainCopy(doc) as { _id: unknown; tags: string[] };
    expect(copy).toEqual({ _id: { $oid: id.toHexString() }, tags: ['a'] });
    expect(copy.tags).not.toBe(doc.tags);
    expect(doc._id).toBe(id);
  });

  it('revives ObjectIds in place, at any depth, in arrays and objects', () => {
    const hex = id.toHexString();
    const cloned = structuredClone({ a: [{ b: { $oid: hex } }, { $oid: hex }], c: { $oid: hex } });
    const revived = revivePlain(cloned);
    expect(revived).toBe(cloned);
    expect(revived.a[0]!.b).toBeInstanceOf(ObjectId);
    expect(revived.a[1]).toBeInstanceOf(ObjectId);
    expect((revived.c as unknown as ObjectId).equals(id)).toBe(true);
  });

  it('carries results the same way, a missing one as null', () => {
    expect(uncarry(structuredClone(encodeResult(undefined)))).toBeNull();
    const found = [{ _id: id, at: new Date(0) }];
    expect(uncarry(structuredClone(encodeResult(found)))).toEqual(throughBson(found));
  });

  it('sends deeply nested and circular values as BSON, whose encoder refuses a circular one as before', () => {
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 200; i += 1) deep = deep.n = {};
    expect(plainCopy(top)).toBe(NOT_PLAIN);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(plainCopy(circular)).toBe(NOT_PLAIN);
    expect(() => encodeValues([circular])).toThrow();
  });
});
