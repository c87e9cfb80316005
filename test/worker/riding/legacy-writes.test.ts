import { Long, ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { createApi } from '../../support/worker-api';

// Writes over riding documents as older code stored them: counters kept as text or Int64, dates missing or kept as
// text, lists kept as one value. Each write answers as it would on a document the service wrote, and leaves it
// readable.

const api = createApi('legacy-riding-writes');
let rider: TestAccount;
let admin: TestAccount;
beforeAll(async () => {
  rider = await register(api);
  admin = await registerAdmin(api);
  await api.fetch('/api/health');
});

const insert = (collection: string, doc: object) => api.db((db) => db.collection(collection).insertOne(doc as never));
const stored = (collection: string, _id: unknown) =>
  api.db((db) => db.collection(collection).findOne({ _id } as never)) as Promise<any>;

describe('counters stored as text', () => {
  it('adds an attempt to a trick whose attempts are the text "5"', async () => {
    const listId = new ObjectId();
    const trickId = new ObjectId();
    await insert('tricklists', { _id: listId, userId: new ObjectId(rider._id), name: 'Old', sport: 'bmx' });
    await insert('tricks', {
      _id: trickId,
      userId: new ObjectId(rider._id),
      listId,
      name: 'Manual',
      status: 'learning',
      attempts: ' 5 ',
    });
    const res = await call(api, 'POST', `/api/tricklists/${listId}/tricks/${trickId}/attempts`, { as: rider });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json<any>()).attempts).toBe(6);
    expect((await stored('tricks', trickId)).attempts).toBe(6);
  });

  it('counts a new entry against a category whose count is the text "2", and then refuses to delete it', async () => {
    const categoryId = new ObjectId();
    await insert('categories', { _id: categoryId, name: 'Flatland', slug: 'flatland', entryCount: '2' });
    const entry = await call(api, 'POST', '/api/trickipedia', {
      as: admin,
      json: { name: 'Pegwheelie', sport: 'bmx', category: 'flatland', description: 'Rolling on the pegs.' },
    });
    expect(entry.status, await entry.clone().text()).toBe(201);
    expect((await stored('categories', categoryId)).entryCount).toBe(3);
    expect((await call(api, 'DELETE', `/api/categories/${categoryId}`, { as: admin })).status).toBe(409);
    const removed = await call(api, 'DELETE', `/api/trickipedia/${(await entry.json<any>())._id}`, { as: admin });
    expect(removed.status).toBe(200);
    expect((await stored('categories', categoryId)).entryCount).toBe(2);
  });

  it('creates a spot list for a free rider whose list count is the text "1", and counts it', async () => {
    const free = await register(api);
    const userId = new ObjectId(free._id);
    await api.db((db) => db.collection('users').updateOne({ _id: userId }, { $set: { spotListCount: '1' } }));
    const res = await call(api, 'POST', '/api/spotlists', { as: free, json: { name: 'Second' } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await stored('users', userId)).spotListCount).toBe(2);
    const deleted = await call(api, 'DELETE', `/api/spotlists/${(await res.json<any>())._id}`, { as: free });
    expect(deleted.status).toBe(200);
    expect((await stored('users', userId)).spotListCount).toBe(1);
  });

  it('shows the mean of ratings stored as text and Int64', async () => {
    const spotId = new ObjectId();
    await insert('spots', { _id: spotId, name: 'Counted', sports: ['bmx'] });
    await insert('spot_reviews', { _id: new ObjectId(), spotId, userId: new ObjectId(), rating: '2' });
    await insert('spot_reviews', { _id: new ObjectId(), spotId, userId: new ObjectId(), rating: Long.fromNumber(4) });
    const spot = await (await call(api, 'GET', `/api/spots/${spotId}`)).json<any>();
    expect(spot).toMatchObject({ ratingAverage: 3, reviewCount: 2 });
  });
});

describe('edits of documents with missing dates or odd fields', () => {
  it('renames and re-cadences a trick list stored without dates, which then reads with dates', async () => {
    const listId = new ObjectId();
    await insert('tricklists', { _id: listId, userId: new ObjectId(rider._id), name: 7, sport: 'Snowboarding' });
    const res = await call(api, 'PATCH', `/api/tricklists/${listId}`, {
      as: rider,
      json: { name: 'Park laps', reminderCadence: 'daily' },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json<any>()).toMatchObject({
      name: 'Park laps',
      sport: 'snowboarding',
      reminderCadence: 'daily',
      createdAt: listId.getTimestamp().toISOString(),
    });
  });

  it('adds a spot to a spot list whose ids older code stored as one text id', async () => {
    const [first, second] = [new ObjectId(), new ObjectId()];
    await insert('spots', { _id: first, name: 'First', sports: [] });
    await insert('spots', { _id: second, name: 'Second', sports: [] });
    const listId = new ObjectId();
    await insert('spotlists', { _id: listId, userId: new ObjectId(rider._id), name: 'Odd', spotIds: `${first}` });
    const res = await call(api, 'PUT', `/api/spotlists/${listId}/spots/${second}`, { as: rider });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json<any>()).spotIds).toEqual([`${first}`, `${second}`]);
  });

  it('publishes a blog post stored with its dates as text, and replaces a trickipedia entry stored without dates', async () => {
    const postId = new ObjectId();
    await insert('blog', {
      _id: postId,
      title: 'Old post',
      slug: `old-post-${postId}`,
      body: 'Text',
      status: 'draft',
      tags: 'news',
      createdAt: 'March 3, 2016',
      updatedAt: '',
      __v: 0,
    });
    const post = await call(api, 'PATCH', `/api/blog/${postId}`, { as: admin, json: { status: 'published' } });
    expect(post.status, await post.clone().text()).toBe(200);
    expect(await post.json<any>()).toMatchObject({ status: 'published', tags: ['news'] });
    const entryId = new ObjectId();
    await insert('categories', { _id: new ObjectId(), name: 'Air', slug: 'air', entryCount: 0 });
    await insert('trickipedia', { _id: entryId, name: 'Old air', slug: 'old-air', category: 'gone', aliases: null });
    const entry = await call(api, 'PUT', `/api/trickipedia/${entryId}`, {
      as: admin,
      json: { name: 'Method', sport: 'snowboarding', category: 'air', description: 'A grab.' },
    });
    expect(entry.status, await entry.clone().text()).toBe(200);
    expect((await entry.json<any>()).createdAt).toBe(entryId.getTimestamp().toISOString());
  });

  it('moves a spot stored with a text updatedAt and legacy stays, and replaces a stay stored with an ObjectId id', async () => {
    const spotId = new ObjectId();
    const stayId = new ObjectId();
    await insert('spots', {
      _id: spotId,
      name: 'Moved',
      sports: ['bmx'],
      city: 'Bonn',
      createdBy: new ObjectId(rider._id),
      stays: [{ _id: stayId, name: 'Stay', type: 'hotel', city: 'Bonn', createdAt: '2015-01-01' }],
      updatedAt: '2016-01-01T00:00:00Z',
    });
    const moved = await call(api, 'PATCH', `/api/spots/${spotId}`, { as: rider, json: { state: 'NRW' } });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const stay = await call(api, 'PUT', `/api/spots/${spotId}/stays/${stayId}`, {
      as: rider,
      json: { name: 'Stay', type: 'hostel', city: 'Bonn' },
    });
    expect(stay.status, await stay.clone().text()).toBe(200);
    expect(await stay.json<any>()).toMatchObject({
      _id: stayId.toHexString(),
      type: 'hostel',
      createdAt: '2015-01-01T00:00:00.000Z',
    });
    const deleted = await call(api, 'DELETE', `/api/spots/${spotId}/stays/${stayId}`, { as: rider });
    expect(await deleted.json<any>()).toEqual({ deleted: true, stayId: stayId.toHexString() });
  });

  it('adds a stay to a spot whose stays older code stored as one stay, keeping that one', async () => {
    const spotId = new ObjectId();
    const oldStay = new ObjectId().toHexString();
    await insert('spots', {
      _id: spotId,
      name: 'Single',
      sports: ['bmx'],
      stays: { _id: oldStay, name: 'Old Inn', type: 'hotel', sourceConfidence: 0.9 },
    });
    const res = await call(api, 'POST', `/api/spots/${spotId}/stays`, {
      as: rider,
      json: { name: 'New Inn', type: 'hostel', sourceConfidence: 0.9 },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { items } = await (await call(api, 'GET', `/api/spots/${spotId}/stays`)).json<any>();
    expect(items.map((stay: { name: string }) => stay.name).sort()).toEqual(['New Inn', 'Old Inn']);
  });
});
