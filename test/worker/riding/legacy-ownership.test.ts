import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { createSpot } from '../../support/spots';
import { createApi } from '../../support/worker-api';

// Riding documents whose owner id (or own id) older code stored as a 24-hex string instead of an ObjectId: they
// belong to that rider all the same, and to no one else.

const api = createApi('legacy-riding-ownership');
let owner: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  owner = await register(api);
  other = await register(api);
  await api.fetch('/api/health');
});

const insert = (collection: string, doc: object) => api.db((db) => db.collection(collection).insertOne(doc as never));
const status = async (method: Parameters<typeof call>[1], path: string, as: TestAccount, json?: unknown) => {
  const res = await call(api, method, path, { as, json });
  return res.status;
};
const now = new Date();

describe('a trick list and its tricks stored with hex-string ids', () => {
  const listId = new ObjectId();
  const stringListId = new ObjectId();
  const trickId = new ObjectId();
  beforeAll(async () => {
    await insert('tricklists', { _id: listId, userId: owner._id, name: 'Old list', sport: 'bmx', createdAt: now });
    await insert('tricklists', { _id: stringListId.toHexString(), userId: owner._id, name: 'String id', sport: 'bmx' });
    await insert('tricks', {
      _id: trickId,
      userId: owner._id,
      listId: listId.toHexString(),
      name: 'Barspin',
      status: 'todo',
      attempts: 0,
      completed: false,
      createdAt: now,
      updatedAt: now,
    });
  });

  it('lists, opens and changes the list for its owner, and answers another rider as for a missing one', async () => {
    const page = await (await call(api, 'GET', '/api/tricklists', { as: owner })).json<any>();
    expect(page.items.map((item: { _id: string }) => item._id)).toContain(listId.toHexString());
    expect(page.items.find((item: { _id: string }) => item._id === listId.toHexString()).trickCount).toBe(1);
    expect(await status('GET', `/api/tricklists/${listId}`, owner)).toBe(200);
    expect(await status('GET', `/api/tricklists/${stringListId}`, owner)).toBe(200);
    expect(await status('PATCH', `/api/tricklists/${listId}`, owner, { name: 'Renamed' })).toBe(200);
    expect(await status('PUT', `/api/users/me/reminder-cadence/${stringListId}`, owner, { cadence: 'daily' })).toBe(
      200,
    );
    expect(await status('GET', `/api/tricklists/${listId}`, other)).toBe(404);
    expect(await status('PATCH', `/api/tricklists/${listId}`, other, { name: 'Mine now' })).toBe(404);
  });

  it('lists, logs, lands and deletes its trick for the owner, and adds tricks to it', async () => {
    const tricks = await (await call(api, 'GET', `/api/tricklists/${listId}/tricks`, { as: owner })).json<any>();
    expect(tricks.items.map((trick: { _id: string }) => trick._id)).toEqual([trickId.toHexString()]);
    const path = `/api/tricklists/${listId}/tricks/${trickId}`;
    expect(await status('POST', `${path}/attempts`, other)).toBe(404);
    expect(await status('POST', `${path}/attempts`, owner)).toBe(200);
    expect(await status('POST', `${path}/land`, owner)).toBe(200);
    expect(await status('PATCH', path, owner, { name: 'Barspin 360' })).toBe(200);
    expect(await status('POST', `/api/tricklists/${listId}/tricks`, owner, { name: 'Tailwhip' })).toBe(201);
    expect(await status('DELETE', path, owner)).toBe(200);
    expect(await status('DELETE', `/api/tricklists/${listId}`, owner)).toBe(200);
    expect(
      await api.db((db) => db.collection('tricks').countDocuments({ listId: { $in: [listId, `${listId}`] } })),
    ).toBe(0);
  });
});

describe('a spot list stored with hex-string ids', () => {
  it('belongs to its owner: listed, shown, renamed, spots added and removed; another rider gets 404', async () => {
    const spot = await createSpot(api, other);
    const listId = new ObjectId();
    await insert('spotlists', { _id: listId, userId: owner._id, name: 'Trips', spotIds: [spot._id], createdAt: now });
    const page = await (await call(api, 'GET', '/api/spotlists', { as: owner })).json<any>();
    expect(page.items.map((item: { _id: string }) => item._id)).toContain(listId.toHexString());
    expect(await status('GET', `/api/spotlists/${listId}`, other)).toBe(404);
    expect(await status('PATCH', `/api/spotlists/${listId}`, owner, { name: 'Road trips' })).toBe(200);
    const again = await call(api, 'PUT', `/api/spotlists/${listId}/spots/${spot._id}`, { as: owner });
    expect(again.status).toBe(200);
    expect((await again.json<any>()).spotIds).toEqual([spot._id]);
    const removed = await call(api, 'DELETE', `/api/spotlists/${listId}/spots/${spot._id}`, { as: owner });
    expect((await removed.json<any>()).spotIds).toEqual([]);
    expect(await status('DELETE', `/api/spotlists/${listId}`, owner)).toBe(200);
  });
});

describe('spots, stays and reviews stored with hex-string ids', () => {
  const spotId = new ObjectId();
  const stayId = new ObjectId().toHexString();
  const reviewId = new ObjectId();
  beforeAll(async () => {
    await insert('spots', {
      _id: spotId,
      name: 'Legacy park',
      sports: ['bmx'],
      location: { type: 'Point', coordinates: [13.4, 52.5] },
      createdBy: owner._id,
      stays: [
        {
          _id: stayId,
          name: 'Old Inn',
          nameKey: 'old inn',
          type: 'hotel',
          sourceConfidence: 0.9,
          createdBy: owner._id,
          createdAt: now,
          updatedAt: now,
        },
      ],
      createdAt: now,
      updatedAt: now,
    });
    await insert('spot_reviews', {
      _id: reviewId,
      spotId: spotId.toHexString(),
      userId: owner._id,
      rating: 3,
      createdAt: now,
      updatedAt: now,
    });
  });

  it("lets the spot's creator change it, and not another rider", async () => {
    expect(await status('PATCH', `/api/spots/${spotId}`, other, { name: 'Taken' })).toBe(403);
    expect(await status('PATCH', `/api/spots/${spotId}`, owner, { name: 'Legacy park (renamed)' })).toBe(200);
  });

  it("lets the stay's creator replace it", async () => {
    const body = { name: 'Old Inn', type: 'hostel', sourceConfidence: 0.9 };
    expect(await status('PUT', `/api/spots/${spotId}/stays/${stayId}`, other, body)).toBe(403);
    expect(await status('PUT', `/api/spots/${spotId}/stays/${stayId}`, owner, body)).toBe(200);
  });

  it("lists the review under its spot, replaces it on the author's next review and lets the author delete it", async () => {
    const list = await (await call(api, 'GET', `/api/spots/${spotId}/reviews`)).json<any>();
    expect(list).toMatchObject({ reviewCount: 1, ratingAverage: 3 });
    expect(list.items[0].user._id).toBe(owner._id);
    const again = await call(api, 'POST', `/api/spots/${spotId}/reviews`, { as: owner, json: { rating: 5 } });
    expect(again.status).toBe(200);
    expect(await api.db((db) => db.collection('spot_reviews').countDocuments({}))).toBe(1);
    expect(await status('DELETE', `/api/spots/${spotId}/reviews/${reviewId}`, other)).toBe(403);
    expect(await status('DELETE', `/api/spots/${spotId}/reviews/${reviewId}`, owner)).toBe(200);
  });

  it("lets the spot's creator delete it", async () => {
    expect(await status('DELETE', `/api/spots/${spotId}`, other)).toBe(403);
    expect(await status('DELETE', `/api/spots/${spotId}`, owner)).toBe(200);
  });
});

describe('deleting an account whose riding documents hold its id as text', () => {
  it('removes its lists, tricks, reviews and landings, and detaches it from spots, stays and posts', async () => {
    const doomed = await register(api);
    const hex = doomed._id;
    const spotId = new ObjectId();
    await api.db(async (db) => {
      await db.collection('tricklists').insertOne({ _id: new ObjectId(), userId: hex, name: 'Mine' } as never);
      await db.collection('tricks').insertOne({ _id: new ObjectId(), userId: hex, listId: new ObjectId() } as never);
      await db.collection('spotlists').insertOne({ _id: new ObjectId(), userId: hex, spotIds: [] } as never);
      await db.collection('spot_reviews').insertOne({ _id: new ObjectId(), spotId, userId: hex, rating: 4 } as never);
      await db.collection('spot_trick_history').insertOne({ _id: new ObjectId(), spotId, userId: hex } as never);
      await db.collection('spots').insertOne({
        _id: spotId,
        name: 'Shared',
        createdBy: hex,
        stays: [{ _id: new ObjectId().toHexString(), name: 'Inn', createdBy: hex }],
      } as never);
      await db
        .collection('blog')
        .insertOne({ _id: new ObjectId(), title: 'Mine', slug: `mine-${hex}`, authorId: hex } as never);
    });
    const res = await api.fetch(`/api/users/${hex}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${doomed.token}` },
    });
    expect(res.status).toBe(200);
    const naming = (collection: string, field: string) =>
      api.db((db) => db.collection(collection).countDocuments({ [field]: hex }));
    for (const collection of ['tricklists', 'tricks', 'spotlists', 'spot_reviews', 'spot_trick_history'])
      expect(await naming(collection, 'userId')).toBe(0);
    expect(await naming('spots', 'createdBy')).toBe(0);
    expect(await naming('spots', 'stays.createdBy')).toBe(0);
    expect(await naming('blog', 'authorId')).toBe(0);
  });
});
