import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import {
  call as callAs,
  countLists,
  createList as createListAs,
  type SpotList,
  setSubscription,
} from '../../support/spot-lists';
import { createApi } from '../../support/worker-api';

const api = createApi('spot-lists');
const call = (who: TestAccount, method: string, path: string, json?: unknown) => callAs(api, who, method, path, json);
const createList = (who: TestAccount, name?: string) => createListAs(api, who, name);

/** A spot stored directly: the spots routes are built elsewhere. */
async function addSpot(): Promise<string> {
  const now = new Date();
  const { insertedId } = await api.db((db) =>
    db.collection('spots').insertOne({ name: 'Skatepark', sports: ['skate'], createdAt: now, updatedAt: now }),
  );
  return insertedId.toHexString();
}

describe('spot lists', () => {
  it('creates, reads, renames and deletes a list', async () => {
    const rider = await register(api);
    const created = await createList(rider, '  Summer trip  ');
    expect(created).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Summer trip',
      spotIds: [],
      spotCount: 0,
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
    });
    expect(await (await call(rider, 'GET', `/api/spotlists/${created._id}`)).json()).toEqual(created);

    const renamed = await call(rider, 'PATCH', `/api/spotlists/${created._id}`, { name: 'Winter trip' });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ _id: created._id, name: 'Winter trip' });

    const deleted = await call(rider, 'DELETE', `/api/spotlists/${created._id}`);
    expect(await deleted.json()).toEqual({ deleted: true, listId: created._id });
    expect((await call(rider, 'GET', `/api/spotlists/${created._id}`)).status).toBe(404);
    expect((await call(rider, 'DELETE', `/api/spotlists/${created._id}`)).status).toBe(404);
  });

  it('lists only your own lists, newest first, in pages', async () => {
    const [rider, other] = [await register(api), await register(api)];
    await setSubscription(api, rider);
    for (const name of ['A', 'B', 'C', 'D']) await createList(rider, name);
    await createList(other, 'Not yours');
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await call(rider, 'GET', `/api/spotlists?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      const page = await res.json<{ items: SpotList[]; nextCursor: string | null }>();
      names.push(...page.items.map((list) => list.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toEqual(['D', 'C', 'B', 'A']);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown field', { name: 'Parks', public: true }, 'request body'],
  ])('refuses %s with 400 naming the field, and the refused create uses no allowance', async (_rule, body, field) => {
    const rider = await register(api);
    const res = await call(rider, 'POST', '/api/spotlists', body);
    expect(res.status).toBe(400);
    expect((await res.json<{ details: { field: string }[] }>()).details.map((d) => d.field)).toContain(field);
    for (let i = 0; i < 3; i++) await createList(rider);
    expect(await countLists(api, rider)).toBe(3);
  });

  it('refuses a malformed list or spot id with 400', async () => {
    const rider = await register(api);
    expect((await call(rider, 'GET', '/api/spotlists/not-an-id')).status).toBe(400);
    const list = await createList(rider);
    expect((await call(rider, 'PUT', `/api/spotlists/${list._id}/spots/xyz`)).status).toBe(400);
  });

  it("answers 404 for another rider's list on every route, and leaves it as it was", async () => {
    const [owner, intruder] = [await register(api), await register(api)];
    const list = await createList(owner);
    const spotId = await addSpot();
    await call(owner, 'PUT', `/api/spotlists/${list._id}/spots/${spotId}`);
    const before = await (await call(owner, 'GET', `/api/spotlists/${list._id}`)).json();
    for (const [method, path, json] of [
      ['GET', `/api/spotlists/${list._id}`],
      ['PATCH', `/api/spotlists/${list._id}`, { name: 'Mine now' }],
      ['DELETE', `/api/spotlists/${list._id}`],
      ['PUT', `/api/spotlists/${list._id}/spots/${await addSpot()}`],
      ['DELETE', `/api/spotlists/${list._id}/spots/${spotId}`],
    ] as const) {
      const res = await call(intruder, method, path, json);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ error: 'Spot list not found.' });
    }
    expect(await (await call(owner, 'GET', `/api/spotlists/${list._id}`)).json()).toEqual(before);
    expect(await (await call(intruder, 'GET', '/api/spotlists')).json()).toEqual({ items: [], nextCursor: null });
  });
});

describe('spots in a list', () => {
  it('adds a spot once however often it is put, and removes it once however often it is deleted', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    const [spotA, spotB] = [await addSpot(), await addSpot()];
    const put = (spotId: string) => call(rider, 'PUT', `/api/spotlists/${list._id}/spots/${spotId}`);
    const first = await (await put(spotA)).json<SpotList>();
    expect(first).toMatchObject({ spotIds: [spotA], spotCount: 1 });
    expect(await (await put(spotA)).json()).toEqual(first);
    expect(await (await put(spotB)).json()).toMatchObject({ spotIds: [spotA, spotB], spotCount: 2 });

    const remove = (spotId: string) => call(rider, 'DELETE', `/api/spotlists/${list._id}/spots/${spotId}`);
    const removed = await (await remove(spotA)).json<SpotList>();
    expect(removed).toMatchObject({ spotIds: [spotB], spotCount: 1 });
    const again = await remove(spotA);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(removed);
  });

  it('adds a spot put 10 times in parallel exactly once', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    const spotId = await addSpot();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(rider, 'PUT', `/api/spotlists/${list._id}/spots/${spotId}`)),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(await (await call(rider, 'GET', `/api/spotlists/${list._id}`)).json()).toMatchObject({ spotIds: [spotId] });
  });

  it('refuses a spot that does not exist with 404, and a list that does not exist with 404', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    const noSpot = await call(rider, 'PUT', `/api/spotlists/${list._id}/spots/${new ObjectId().toHexString()}`);
    expect(noSpot.status).toBe(404);
    expect(await noSpot.json()).toEqual({ error: 'Spot not found.' });
    const noList = await call(rider, 'PUT', `/api/spotlists/${new ObjectId().toHexString()}/spots/${await addSpot()}`);
    expect(await noList.json()).toEqual({ error: 'Spot list not found.' });
  });

  it('refuses a 1001st spot with 409', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    const full = Array.from({ length: 1000 }, () => new ObjectId());
    await api.db((db) =>
      db.collection('spotlists').updateOne({ _id: new ObjectId(list._id) }, { $set: { spotIds: full } }),
    );
    const res = await call(rider, 'PUT', `/api/spotlists/${list._id}/spots/${await addSpot()}`);
    expect(res.status).toBe(409);
    // A spot already in a full list is still an idempotent success.
    await api.db((db) => db.collection('spots').insertOne({ _id: full[0], name: 'x', sports: [] }));
    expect((await call(rider, 'PUT', `/api/spotlists/${list._id}/spots/${full[0]!.toHexString()}`)).status).toBe(200);
  });
});

describeAccessChecks(api, [
  { method: 'GET', path: '/api/spotlists', check: 'auth' },
  { method: 'POST', path: '/api/spotlists', check: 'auth', json: { name: 'Made by the access table' } },
  { method: 'GET', path: '/api/spotlists/:listId', check: 'auth' },
  { method: 'PATCH', path: '/api/spotlists/:listId', check: 'auth', json: { name: 'Renamed by the access table' } },
  { method: 'DELETE', path: '/api/spotlists/:listId', check: 'auth' },
  { method: 'PUT', path: '/api/spotlists/:listId/spots/:spotId', check: 'auth' },
  { method: 'DELETE', path: '/api/spotlists/:listId/spots/:spotId', check: 'auth' },
]);
