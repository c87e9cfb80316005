import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../worker/limits';
import { describeAccessChecks } from '../support/access-checks';
import { register, type TestAccount } from '../support/accounts';
import { createApi } from '../support/worker-api';

const api = createApi('tricks');
const as = (account: TestAccount) => ({ 'x-auth-token': account.token });

async function createList(owner: TestAccount): Promise<string> {
  const res = await api.fetch('/api/tricklists', {
    method: 'POST',
    headers: as(owner),
    json: { name: 'Flat', sport: 'skateboarding' },
  });
  expect(res.status).toBe(201);
  return (await res.json<any>())._id;
}

async function addTrick(owner: TestAccount, listId: string, json: object = { name: 'Kickflip' }) {
  const res = await api.fetch(`/api/tricklists/${listId}/tricks`, { method: 'POST', headers: as(owner), json });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<any>();
}

/** A rider with a list holding one fresh trick. */
async function riderWithTrick() {
  const rider = await register(api);
  const listId = await createList(rider);
  const trick = await addTrick(rider, listId);
  return { rider, listId, trick, path: `/api/tricklists/${listId}/tricks/${trick._id}` };
}

const storedTrick = (id: string) => api.db((db) => db.collection('tricks').findOne({ _id: new ObjectId(id) }));

async function seedTrickipediaEntry(): Promise<string> {
  const now = new Date();
  const { insertedId } = await api.db((db) =>
    db.collection('trickipedia').insertOne({ name: 'Ollie', sport: 'skateboarding', createdAt: now, updatedAt: now }),
  );
  return insertedId.toHexString();
}

async function fieldsRefused(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  return (await res.json<any>()).details.map((detail: { field: string }) => detail.field);
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

describe('logging attempts', () => {
  it('counts one attempt and moves a todo trick to learning', async () => {
    const { rider, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ attempts: 1, status: 'learning', completed: false });
  });

  it('keeps a landed trick landed while counting', async () => {
    const { rider, path } = await riderWithTrick();
    await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    const res = await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) });
    expect(await res.json()).toMatchObject({ attempts: 1, status: 'landed', completed: true });
  });

  it('counts 20 parallel attempts exactly', async () => {
    const { rider, path, trick } = await riderWithTrick();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect((await storedTrick(trick._id))!.attempts).toBe(20);
  });

  it("answers 404 for another rider's trick and counts nothing", async () => {
    const { trick, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(await register(api)) });
    expect(res.status).toBe(404);
    expect(await storedTrick(trick._id)).toMatchObject({ attempts: 0, status: 'todo' });
  });
});

describe('landing', () => {
  it('lands the trick: status landed, completed, landedAt set', async () => {
    const { rider, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    expect(res.status).toBe(200);
    const landed = await res.json<any>();
    expect(landed).toMatchObject({ status: 'landed', completed: true, landedAt: expect.any(String) });
  });

  it('does not land twice: the second answers 200 with the unchanged trick', async () => {
    const { rider, path } = await riderWithTrick();
    const first = await (await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) })).json<any>();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(first);
  });

  it('10 parallel landings leave one landedAt', async () => {
    const { rider, path, trick } = await riderWithTrick();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    const landedAts = new Set(await Promise.all(answers.map(async (res) => (await res.json<any>()).landedAt)));
    const stored = await storedTrick(trick._id);
    expect([...landedAts]).toEqual([stored!.landedAt.toISOString()]);
  });

  it("answers 404 for another rider's trick and lands nothing", async () => {
    const { trick, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/land`, { method: 'POST', headers: as(await register(api)) });
    expect(res.status).toBe(404);
    expect(await storedTrick(trick._id)).toMatchObject({ status: 'todo', completed: false, landedAt: null });
  });
});

// One line per route; bodies that would do harm if a refused caller got through.
describeAccessChecks(api, [
  { method: 'GET', path: '/api/tricklists/:listId/tricks', check: 'auth' },
  { method: 'POST', path: '/api/tricklists/:listId/tricks', check: 'auth', json: { name: 'Planted' } },
  { method: 'PATCH', path: '/api/tricklists/:listId/tricks/:trickId', check: 'auth', json: { name: 'Renamed' } },
  { method: 'DELETE', path: '/api/tricklists/:listId/tricks/:trickId', check: 'auth' },
  { method: 'POST', path: '/api/tricklists/:listId/tricks/:trickId/attempts', check: 'auth' },
  { method: 'POST', path: '/api/tricklists/:listId/tricks/:trickId/land', check: 'auth' },
]);
