import { MongoServerError, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

async function seeded() {
  const c = t.db().collection<AnyDoc>('jobs');
  await c.insertMany([
    { _id: 1, state: 'queued', pri: 2 },
    { _id: 2, state: 'queued', pri: 5 },
    { _id: 3, state: 'done', pri: 9 },
  ]);
  return c;
}

describe('findAndModify', () => {
  it('returns the old or new document, honouring sort', async () => {
    const c = await seeded();
    const before = await c.findOneAndUpdate({ state: 'queued' }, { $set: { state: 'running' } }, { sort: { pri: -1 } });
    expect(before).toEqual({ _id: 2, state: 'queued', pri: 5 });
    const after = await c.findOneAndUpdate(
      { state: 'queued' },
      { $set: { state: 'running' } },
      { sort: { pri: -1 }, returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 1, state: 'running', pri: 2 });
    expect(await c.findOneAndUpdate({ state: 'queued' }, { $set: { x: 1 } })).toBeNull();
  });

  it('applies projections (fields) to the returned document', async () => {
    const c = await seeded();
    const doc = await c.findOneAndUpdate(
      { _id: 3 },
      { $inc: { pri: 1 } },
      { projection: { pri: 1, _id: 0 }, returnDocument: 'after' },
    );
    expect(doc).toEqual({ pri: 10 });
  });

  it('removes and returns the document', async () => {
    const c = await seeded();
    expect(await c.findOneAndDelete({ state: 'queued' }, { sort: { pri: 1 } })).toEqual({
      _id: 1,
      state: 'queued',
      pri: 2,
    });
    expect(await c.countDocuments()).toBe(2);
    expect(await c.findOneAndDelete({ state: 'nope' })).toBeNull();
  });

  it('replaces and upserts', async () => {
    const c = await seeded();
    expect(await c.findOneAndReplace({ _id: 3 }, { state: 'archived' }, { returnDocument: 'after' })).toEqual({
      _id: 3,
      state: 'archived',
    });
    const upserted = await c.findOneAndUpdate(
      { name: 'new' },
      { $set: { state: 'queued' }, $setOnInsert: { pri: 0 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(upserted).toMatchObject({ name: 'new', state: 'queued', pri: 0 });
    expect(upserted!._id).toBeInstanceOf(ObjectId);
    const silent = await c.findOneAndUpdate({ name: 'other' }, { $set: { state: 'queued' } }, { upsert: true });
    expect(silent).toBeNull();
    expect(await c.countDocuments({ name: 'other' })).toBe(1);
  });

  it('exposes lastErrorObject with includeResultMetadata', async () => {
    const c = await seeded();
    const res = await c.findOneAndUpdate(
      { _id: 99 },
      { $set: { a: 1 } },
      { upsert: true, includeResultMetadata: true },
    );
    expect(res.lastErrorObject).toEqual({ n: 1, updatedExisting: false, upserted: 99 });
    expect(res.value).toBeNull();
    const res2 = await c.findOneAndUpdate({ _id: 99 }, { $set: { a: 2 } }, { includeResultMetadata: true });
    expect(res2.lastErrorObject).toEqual({ n: 1, updatedExisting: true });
    expect(res2.ok).toBe(1);
  });

  it('reports duplicate keys as a top-level 11000 error', async () => {
    const c = await seeded();
    await c.createIndex({ slug: 1 }, { unique: true, sparse: true });
    await c.updateOne({ _id: 1 }, { $set: { slug: 'taken' } });
    const err = await c.findOneAndUpdate({ _id: 2 }, { $set: { slug: 'taken' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject({
      code: 11000,
      codeName: 'DuplicateKey',
      keyPattern: { slug: 1 },
      keyValue: { slug: 'taken' },
    });
    const raw = await c.db
      .command({ findAndModify: 'jobs', query: { _id: 2 }, update: { $set: { slug: 'taken' } } })
      .catch((e: MongoServerError) => e.errorResponse);
    expect(raw).toMatchObject({ ok: 0, code: 11000, codeName: 'DuplicateKey' });
    expect(raw.errmsg).toMatch(
      /^E11000 duplicate key error collection: t_\d+_\d+\.jobs index: slug_1 dup key: \{ slug: "taken" \}$/,
    );
  });

  it('rejects remove combined with update', async () => {
    const c = await seeded();
    const err = await c.db
      .command({ findAndModify: 'jobs', query: {}, remove: true, update: { $set: { a: 1 } } })
      .catch((e: { code: number }) => e);
    expect(err).toMatchObject({ code: 9 });
  });

  it('lets an upsert choose the new _id with $setOnInsert, and ignores it once the document exists', async () => {
    const c = t.db().collection<AnyDoc>('picked_ids');
    const id = new ObjectId();
    const update = { $set: { n: 1 }, $setOnInsert: { _id: id, first: true } };
    const inserted = await c.findOneAndUpdate({ key: 'a' }, update, { upsert: true, returnDocument: 'after' });
    expect(inserted).toEqual({ _id: id, key: 'a', n: 1, first: true });
    const again = await c.findOneAndUpdate(
      { key: 'a' },
      { ...update, $setOnInsert: { _id: new ObjectId() } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(again).toEqual({ _id: id, key: 'a', n: 1, first: true });
    await c.updateOne({ key: 'b' }, { $setOnInsert: { _id: 'chosen' } }, { upsert: true });
    expect(await c.findOne({ key: 'b' })).toEqual({ _id: 'chosen', key: 'b' });
  });
});
