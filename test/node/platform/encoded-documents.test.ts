import { Binary, BSON, Decimal128, type Document, Int32, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { withoutSequences, withSequences } from '../../../durable-objects/db-gateway-codec';
import { encodedDocuments, sequenceBytes, splitDocuments } from '../../../durable-objects/encoded-documents';
import { useDevDatabase } from '../../support/dev-database';

// Documents encoded once in the Worker travel as bytes to the server: what is stored must be what the driver's
// own insert stores, and the bytes must survive the gateway's crossing unchanged.

const dev = useDevDatabase();

const sample = (): Document[] => [
  {
    _id: new ObjectId(),
    at: new Date('2026-01-02T03:04:05.678Z'),
    name: 'spot_viewed',
    gone: undefined,
    price: Decimal128.fromString('1.50'),
    properties: { spotId: 'x', tags: ['a', { deep: [1, 2.5, null] }] },
  },
  { _id: new ObjectId(), text: 'é ✓ 🛹', empty: {} },
  { _id: new ObjectId() },
  {
    _id: new ObjectId(),
    big: Long.fromString('9007199254740993'),
    bytes: new Binary(new Uint8Array([1, 2, 3]), 4),
    int: new Int32(7),
    'clé ✓': { ключ: 'значение' },
    shown: { toBSON: () => ({ as: 'toBSON returns it' }) },
  },
];

describe('encodedDocuments', () => {
  it('encodes each document as the driver does: undefined as null, one view per document', () => {
    const documents = sample();
    const views = sequenceBytes(encodedDocuments('documents', documents));
    const split = splitDocuments(views);
    expect(split).toHaveLength(4);
    for (const [i, bytes] of split.entries())
      expect(BSON.deserialize(bytes, { promoteValues: true })).toEqual(
        BSON.deserialize(BSON.serialize(documents[i]!, { ignoreUndefined: false })),
      );
    expect(BSON.deserialize(split[0]!).gone).toBeNull();
  });

  it('stores through the driver what insertMany stores', async () => {
    const db = dev.client.db('encoded_documents');
    const documents = sample();
    await db.command({ insert: 'sequence', documents: encodedDocuments('documents', documents), ordered: false });
    await db.collection('plain').insertMany(documents.map((document) => ({ ...document })));
    const [sequence, plain] = await Promise.all(
      ['sequence', 'plain'].map((name) =>
        db
          .collection(name)
          .find({}, { sort: { _id: 1 } })
          .toArray(),
      ),
    );
    expect(sequence).toEqual(plain);
    expect(sequence).toHaveLength(4);
    expect(sequence[3]).toMatchObject({ 'clé ✓': { ключ: 'значение' }, shown: { as: 'toBSON returns it' } });
  });

  it('crosses to the gateway as one buffer of bytes and is put back as a sequence the driver sends', async () => {
    const db = dev.client.db('encoded_documents');
    const documents = sample();
    const command = { insert: 'crossed', documents: encodedDocuments('documents', documents), ordered: true };
    const [rest, sequences] = withoutSequences(command);
    expect(rest).toEqual({ insert: 'crossed', ordered: true });
    expect(Object.keys(sequences!)).toEqual(['documents']);
    // What structured clone hands the gateway: a copy of the one buffer.
    const reply = await db.command(withSequences(rest, structuredClone(sequences!)));
    expect(reply).toMatchObject({ n: 4, ok: 1 });
    expect(await db.collection('crossed').countDocuments()).toBe(4);
    expect(withoutSequences({ ping: 1 })).toEqual([{ ping: 1 }, undefined]);
  });

  it('refuses bytes that are cut short and a value that is not a document', () => {
    const bytes = sequenceBytes(encodedDocuments('documents', sample()));
    expect(() => splitDocuments(bytes.subarray(0, bytes.length - 1))).toThrow(/cut short/);
    expect(() => splitDocuments(new Uint8Array([1, 0]))).toThrow(/cut short/);
    expect(() => encodedDocuments('documents', [5 as unknown as Document])).toThrow(TypeError);
  });
});
