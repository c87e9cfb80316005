import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import {
  addTrick as addTrickOf,
  as,
  createList as createListOf,
  fieldsRefused,
  riderWithTrick as riderWithTrickOf,
  storedTrick as storedTrickOf,
} from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

const api = createApi('tricks');
const createList = async (owner: TestAccount): Promise<string> => (await createListOf(api, owner))._id;
const addTrick = (owner: TestAccount, listId: string, json?: object) => addTrickOf(api, owner, listId, json);
const riderWithTrick = () => riderWithTrickOf(api);
const storedTrick = (id: string) => storedTrickOf(api, id);

async function seedTrickipediaEntry(): Promise<string> {
  const now = new Date();
  const { insertedId } = await api.db((db) =>
    db.collection('trickipedia').insertOne({
      name: 'Ollie',
      slug: `ollie-${crypto.randomUUID()}`,
      sport: 'skateboarding',
      createdAt: now,
      updatedAt: now,
    }),
  );
  return insertedId.toHexString();
}

describe('adding a trick', () => {
  it('starts as todo with no attempts, not completed, not landed, owned by the rider', async () => {
    const rider = await register(api);
    const listId = await createList(rider);
    const trick = await addTrick(rider, listId, { name: ' Kickflip ' });
    expect(trick).toMatchObject({
      listId,
      name: 'Kickflip',
      trickipediaId: null,
      status: 'todo',
      attempts: 0,
      completed: false,
      landedAt: null,
    });
    expect((await storedTrick(trick._id))!.userId).toEqual(new ObjectId(rider._id));
  });

  it('links an existing trickipedia entry and refuses an unknown one with 400 naming trickipediaId', async () => {
    const rider = await register(api);
    const listId = await createList(rider);
    const entryId = await seedTrickipediaEntry();
    expect(await addTrick(rider, listId, { name: 'Ollie', trickipediaId: entryId })).toMatchObject({
      trickipediaId: entryId,
    });
    const post = (json: object) =>
      api.fetch(`/api/tricklists/${listId}/tricks`, { method: 'POST', headers: as(rider), json });
    expect(await fieldsRefused(await post({ name: 'Nollie', trickipediaId: new ObjectId().toHexString() }))).toEqual([
      'trickipediaId',
    ]);
    expect(await fieldsRefused(await post({ name: 'Nollie', trickipediaId: 'ollie' }))).toEqual(['trickipediaId']);
    expect(await api.db((db) => db.collection('tricks').countDocuments({ listId: new ObjectId(listId) }))).toBe(1);
  });

  it('refuses an empty or too long name, a status other than todo or learning, and unknown fields', async () => {
    const rider = await register(api);
    const listId = await createList(rider);
    const post = (json: object) =>
      api.fetch(`/api/tricklists/${listId}/tricks`, { method: 'POST', headers: as(rider), json });
    expect(await fieldsRefused(await post({ name: '' }))).toEqual(['name']);
    expect(await fieldsRefused(await post({ name: 'x'.repeat(LIMITS.trickName.max + 1) }))).toEqual(['name']);
    expect(await fieldsRefused(await post({ name: 'Flip', status: 'done' }))).toEqual(['status']);
    expect(await fieldsRefused(await post({ name: 'Flip', status: 'landed' }))).toEqual(['status']);
    expect((await post({ name: 'Flip', attempts: 5 })).status).toBe(400);
    expect(await addTrick(rider, listId, { name: 'Flip', status: 'learning' })).toMatchObject({ status: 'learning' });
  });

  it("answers 404 for another rider's list and stores nothing", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const listId = await createList(owner);
    const res = await api.fetch(`/api/tricklists/${listId}/tricks`, {
      method: 'POST',
      headers: as(other),
      json: { name: 'Planted' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Trick list not found.' });
    expect(await api.db((db) => db.collection('tricks').countDocuments({ listId: new ObjectId(listId) }))).toBe(0);
  });
});

describe('listing tricks', () => {
  it("pages one list's tricks newest first", async () => {
    const rider = await register(api);
    const [listId, otherList] = [await createList(rider), await createList(rider)];
    for (const name of ['A', 'B', 'C']) await addTrick(rider, listId, { name });
    await addTrick(rider, otherList, { name: 'Elsewhere' });
    const page1 = await (
      await api.fetch(`/api/tricklists/${listId}/tricks?limit=2`, { headers: as(rider) })
    ).json<any>();
    expect(page1.items.map((t: any) => t.name)).toEqual(['C', 'B']);
    const res = await api.fetch(`/api/tricklists/${listId}/tricks?limit=2&cursor=${page1.nextCursor}`, {
      headers: as(rider),
    });
    expect(await res.json()).toMatchObject({ items: [{ name: 'A' }], nextCursor: null });
  });

  it("answers 404 for another rider's list and 400 naming listId for a malformed id", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const listId = await createList(owner);
    await addTrick(owner, listId);
    expect((await api.fetch(`/api/tricklists/${listId}/tricks`, { headers: as(other) })).status).toBe(404);
    expect(await fieldsRefused(await api.fetch('/api/tricklists/123/tricks', { headers: as(owner) }))).toEqual([
      'listId',
    ]);
  });
});

describe('changing a trick', () => {
  it('renames it, sets its status, and links and unlinks trickipedia', async () => {
    const { rider, path } = await riderWithTrick();
    const entryId = await seedTrickipediaEntry();
    const patch = (json: object) => api.fetch(path, { method: 'PATCH', headers: as(rider), json });
    const renamed = await patch({ name: 'Varial flip', status: 'learning', trickipediaId: entryId });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: 'Varial flip', status: 'learning', trickipediaId: entryId });
    expect(await (await patch({ trickipediaId: null })).json()).toMatchObject({ trickipediaId: null });
    expect(await fieldsRefused(await patch({ trickipediaId: new ObjectId().toHexString() }))).toEqual([
      'trickipediaId',
    ]);
  });

  it('refuses each invalid field, landed included, and changes nothing', async () => {
    const { rider, path, trick } = await riderWithTrick();
    const before = await storedTrick(trick._id);
    const patch = (json: object) => api.fetch(path, { method: 'PATCH', headers: as(rider), json });
    expect(await fieldsRefused(await patch({ name: ' ' }))).toEqual(['name']);
    expect(await fieldsRefused(await patch({ status: 'landed' }))).toEqual(['status']);
    expect(await fieldsRefused(await patch({ status: 'nailed' }))).toEqual(['status']);
    expect((await patch({ completed: true })).status).toBe(400);
    expect(await fieldsRefused(await api.fetch(`${path}x`, { method: 'PATCH', headers: as(rider), json: {} }))).toEqual(
      ['trickId'],
    );
    expect(await storedTrick(trick._id)).toEqual(before);
  });

  it('un-lands a landed trick moved back to learning', async () => {
    const { rider, path } = await riderWithTrick();
    await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    const res = await api.fetch(path, { method: 'PATCH', headers: as(rider), json: { status: 'learning' } });
    expect(await res.json()).toMatchObject({ status: 'learning', completed: false, landedAt: null });
  });

  it("answers 404 for another rider's trick, or the trick through another list, and changes nothing", async () => {
    const { rider, trick, path } = await riderWithTrick();
    const other = await register(api);
    const before = await storedTrick(trick._id);
    const theirs = await api.fetch(path, { method: 'PATCH', headers: as(other), json: { name: 'Stolen' } });
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ error: 'Trick not found.' });
    const wrongList = `/api/tricklists/${await createList(rider)}/tricks/${trick._id}`;
    const moved = await api.fetch(wrongList, { method: 'PATCH', headers: as(rider), json: { name: 'Moved' } });
    expect(moved.status).toBe(404);
    expect(await storedTrick(trick._id)).toEqual(before);
  });
});

describe('deleting a trick', () => {
  it('removes it once; the second delete answers 404', async () => {
    const { rider, trick, path } = await riderWithTrick();
    const res = await api.fetch(path, { method: 'DELETE', headers: as(rider) });
    expect(await res.json()).toEqual({ deleted: true, trickId: trick._id });
    expect(await storedTrick(trick._id)).toBeNull();
    expect((await api.fetch(path, { method: 'DELETE', headers: as(rider) })).status).toBe(404);
  });

  it("answers 404 for another rider's trick and keeps it", async () => {
    const { trick, path } = await riderWithTrick();
    expect((await api.fetch(path, { method: 'DELETE', headers: as(await register(api)) })).status).toBe(404);
    expect(await storedTrick(trick._id)).not.toBeNull();
  });
});

// One line per route; bodies that would do harm if a refused caller got through.
describeAccessChecks(api, [
  { method: 'GET', path: '/api/tricklists/:listId/tricks', check: 'auth' },
  { method: 'POST', path: '/api/tricklists/:listId/tricks', check: 'auth', json: { name: 'Planted' } },
  { method: 'PATCH', path: '/api/tricklists/:listId/tricks/:trickId', check: 'auth', json: { name: 'Renamed' } },
  { method: 'DELETE', path: '/api/tricklists/:listId/tricks/:trickId', check: 'auth' },
]);
