import { Decimal128, Double, Int32, Long, ObjectId } from 'bson';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { Index, normalizeIndexSpec } from '../src/indexes.js';
import type { Doc } from '../src/values.js';

const SPECS: Doc[] = [
  { key: { a: 1 } },
  { key: { a: 1 }, sparse: true },
  { key: { a: 1, b: -1 } },
  { key: { a: 1, b: 1 }, sparse: true },
  { key: { a: 1, 'b.c': 1 } },
  { key: { a: 1 }, collation: { locale: 'en', strength: 2 } },
  { key: { a: 1, b: 1 }, partialFilterExpression: { b: { $gt: 0 } } },
];

const VALUES: unknown[] = [
  1,
  1.5,
  -0,
  Number.NaN,
  new Int32(1),
  new Double(1),
  new Long(1),
  Decimal128.fromString('1'),
  'Bob',
  'bob',
  '',
  true,
  null,
  undefined,
  new Date(0),
  new ObjectId('65a1b2c3d4e5f60718293a4b'),
  /x/i,
  { c: 2 },
  { c: [1, 2] },
  [],
  [1, 1, 2],
  [{ c: 1 }, { c: 2 }],
  [[1], 2],
];

/** Documents with every value (and a missing field) in `a` and `b`. */
function documents(): Doc[] {
  const docs: Doc[] = [];
  for (const a of [...VALUES, 'missing']) {
    for (const b of [...VALUES, 'missing']) {
      const doc: Doc = { _id: docs.length };
      if (a !== 'missing') doc.a = a;
      if (b !== 'missing') doc.b = b;
      docs.push(doc);
    }
  }
  return docs;
}

describe('index key extraction', () => {
  it('gives the same entries through the top-level fast path as through the multikey expansion', () => {
    const docs = documents();
    for (const raw of SPECS) {
      const index = new Index(normalizeIndexSpec(raw));
      for (const doc of docs) {
        const partial = raw.partialFilterExpression as Doc | undefined;
        const expected = partial && !new Query(partial).test(doc) ? null : index.expandedKeyEntries(doc);
        expect(index.keyEntries(doc), `${JSON.stringify(raw)} on ${String(doc._id)}`).toEqual(expected);
      }
    }
  });

  it('keeps every id under a shared key through adds and removes', () => {
    const index = new Index(normalizeIndexSpec({ key: { a: 1 } }));
    const docs = [0, 1, 2].map((n) => ({ _id: n, a: 'same' }));
    const ids = () => [...index.lookup('Ssame')].sort();
    for (const doc of docs) index.add(doc, String(doc._id));
    index.add(docs[0]!, '0');
    expect(ids()).toEqual(['0', '1', '2']);
    index.remove(docs[1]!, '1');
    expect(ids()).toEqual(['0', '2']);
    index.remove(docs[0]!, '0');
    expect(ids()).toEqual(['2']);
    index.remove(docs[0]!, '0');
    expect(ids()).toEqual(['2']);
    index.add(docs[1]!, '1');
    expect(ids()).toEqual(['1', '2']);
    index.remove(docs[2]!, '2');
    index.remove(docs[1]!, '1');
    expect(ids()).toEqual([]);
  });

  it('refuses a duplicate only against another id, with entries passed in or worked out', () => {
    const index = new Index(normalizeIndexSpec({ key: { a: 1 }, unique: true }));
    index.add({ _id: 1, a: 'x' }, '1');
    expect(() => index.assertUnique({ _id: 1, a: 'x' }, '1', 'db.c')).not.toThrow();
    expect(() => index.assertUnique({ _id: 2, a: 'x' }, '2', 'db.c')).toThrow(/E11000/);
    const entries = index.keyEntries({ _id: 2, a: 'x' });
    expect(() => index.assertUnique({ _id: 2, a: 'x' }, '2', 'db.c', entries)).toThrow(/E11000/);
    expect(() => index.assertUnique({ _id: 2, a: 'y' }, '2', 'db.c', null)).not.toThrow();
  });

  it('tells compound keys apart by their parts, whatever the parts contain, and joins values mongod finds equal', () => {
    const index = new Index(normalizeIndexSpec({ key: { a: 1, b: 1 }, unique: true }));
    const docs: Doc[] = [
      { a: 'x', b: 'y:z' },
      { a: 'x:y', b: 'z' },
      { a: '1:Sx', b: 'y' },
      { a: '1', b: 'Sx1:Sy' },
      { a: 'x","Sy', b: 'z' },
      { a: 'x', b: 'y","Sz' },
      { a: 'xSy', b: 'z' },
      { a: 'x', b: 'ySz' },
    ];
    const keys = docs.map((doc) => index.keyEntries(doc)!.map((entry) => entry.key));
    expect(new Set(keys.flat()).size).toBe(keys.flat().length);
    index.add({ _id: 1, a: 1, b: new Date(5) }, '1');
    expect(() => index.assertUnique({ _id: 2, a: new Long(1), b: new Date(5) }, '2', 'db.c')).toThrow(/E11000/);
    expect(() => index.assertUnique({ _id: 2, a: new Double(1), b: [new Date(5)] }, '2', 'db.c')).toThrow(/E11000/);
    expect(() => index.assertUnique({ _id: 2, a: 1, b: new Date(6) }, '2', 'db.c')).not.toThrow();
  });
});
