import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { addTrick as addTrickOf, as, createList as createListOf, fieldsRefused } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

const api = createApi('tricklists');
const createList = (owner: TestAccount, json?: object) => createListOf(api, owner, json);
const addTrick = (owner: TestAccount, listId: string, name = 'Kickflip') => addTrickOf(api, owner, listId, { name });
const storedList = (id: string) => api.db((db) => db.collection('tricklists').findOne({ _id: new ObjectId(id) }));
const storedTrickCount = (listId: string) =>
  api.db((db) => db.collection('tricks').countDocuments({ listId: new ObjectId(listId) }));

describe('creating a list', () => {
  it('stores the list for its owner with reminderCadence weekly by default and no lastOpenedAt', async () => {
    const rider = await register(api);
    const list = await createList(rider, { name: '  Street  ', sport: 'skateboarding' });
    expect(list).toMatchObject({
      name: 'Street',
      sport: 'skateboarding',
      reminderCadence: 'weekly',
      lastOpenedAt: null,
    });
    expect(list.createdAt).toBe(list.updatedAt);
    const stored = await storedList(list._id);
    expect(stored!.userId).toEqual(new ObjectId(rider._id));
  });

  it('accepts every sport and reminder cadence', async () => {
    const rider = await register(api);
    for (const [sport, reminderCadence] of [
      ['snowboarding', 'off'],
      ['bmx', 'daily'],
      ['wakeboarding', '3x-week'],
    ]) {
      expect(await createList(rider, { name: 'L', sport, reminderCadence })).toMatchObject({ sport, reminderCadence });
    }
  });

  it('refuses an empty or too long name, a sport or cadence outside the lists, and unknown fields', async () => {
    const rider = await register(api);
    const post = (json: object) => api.fetch('/api/tricklists', { method: 'POST', headers: as(rider), json });
    const base = { name: 'Park', sport: 'bmx' };
    expect(await fieldsRefused(await post({ ...base, name: '   ' }))).toEqual(['name']);
    expect(await fieldsRefused(await post({ ...base, name: 'x'.repeat(LIMITS.trickListName.max + 1) }))).toEqual([
      'name',
    ]);
    expect(await fieldsRefused(await post({ ...base, sport: 'skiing' }))).toEqual(['sport']);
    expect(await fieldsRefused(await post({ name: 'Park' }))).toEqual(['sport']);
    expect(await fieldsRefused(await post({ ...base, reminderCadence: 'hourly' }))).toEqual(['reminderCadence']);
    expect((await post({ ...base, userId: rider._id })).status).toBe(400);
    expect(await api.db((db) => db.collection('tricklists').countDocuments({ userId: new ObjectId(rider._id) }))).toBe(
      0,
    );
  });
});

describe('listing lists', () => {
  it("pages the caller's lists newest first with each list's trick count, and nobody else's", async () => {
    const [rider, other] = [await register(api), await register(api)];
    const first = await createList(rider, { name: 'First', sport: 'bmx' });
    await createList(rider, { name: 'Second', sport: 'bmx' });
    const third = await createList(rider, { name: 'Third', sport: 'bmx' });
    await createList(other);
    await addTrick(rider, first._id);
    await addTrick(rider, first._id, 'Heelflip');
    await addTrick(rider, third._id);

    const page1 = await (await api.fetch('/api/tricklists?limit=2', { headers: as(rider) })).json<any>();
    expect(page1.items.map((l: any) => [l.name, l.trickCount])).toEqual([
      ['Third', 1],
      ['Second', 0],
    ]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const res = await api.fetch(`/api/tricklists?limit=2&cursor=${page1.nextCursor}`, { headers: as(rider) });
    const page2 = await res.json<any>();
    expect(page2.items.map((l: any) => [l._id, l.trickCount])).toEqual([[first._id, 2]]);
    expect(page2.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not issue and a limit out of range', async () => {
    const rider = await register(api);
    expect(await fieldsRefused(await api.fetch('/api/tricklists?cursor=%%%', { headers: as(rider) }))).toEqual([
      'cursor',
    ]);
    const tooMany = await api.fetch(`/api/tricklists?limit=${LIMITS.pageSizeMax + 1}`, { headers: as(rider) });
    expect(await fieldsRefused(tooMany)).toEqual(['limit']);
  });
});

describe('opening a list', () => {
  it('sets lastOpenedAt when the owner opens it, and answers with the trick count', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    await addTrick(rider, list._id);
    const before = Date.now();
    const res = await api.fetch(`/api/tricklists/${list._id}`, { headers: as(rider) });
    expect(res.status).toBe(200);
    const opened = await res.json<any>();
    expect(opened).toMatchObject({ _id: list._id, trickCount: 1, updatedAt: list.updatedAt });
    expect(Date.parse(opened.lastOpenedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await storedList(list._id))!.lastOpenedAt.toISOString()).toBe(opened.lastOpenedAt);
  });

  it("answers 404 for another rider's list and leaves its lastOpenedAt unset", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const list = await createList(owner);
    const res = await api.fetch(`/api/tricklists/${list._id}`, { headers: as(other) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Trick list not found.' });
    expect((await storedList(list._id))!.lastOpenedAt).toBeUndefined();
  });

  it('answers 404 for an unknown id and 400 naming listId for a malformed one', async () => {
    const rider = await register(api);
    expect((await api.fetch(`/api/tricklists/${new ObjectId()}`, { headers: as(rider) })).status).toBe(404);
    expect(await fieldsRefused(await api.fetch('/api/tricklists/not-an-id', { headers: as(rider) }))).toEqual([
      'listId',
    ]);
  });
});

describe('changing a list', () => {
  it('renames it and changes sport and cadence, moving updatedAt', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await api.fetch(`/api/tricklists/${list._id}`, {
      method: 'PATCH',
      headers: as(rider),
      json: { name: 'Bowl', sport: 'bmx', reminderCadence: 'off' },
    });
    expect(res.status).toBe(200);
    const changed = await res.json<any>();
    expect(changed).toMatchObject({ name: 'Bowl', sport: 'bmx', reminderCadence: 'off', createdAt: list.createdAt });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(list.updatedAt));
  });

  it('refuses each invalid field and changes nothing', async () => {
    const rider = await register(api);
    const list = await createList(rider);
    const patch = (json: object) =>
      api.fetch(`/api/tricklists/${list._id}`, { method: 'PATCH', headers: as(rider), json });
    expect(await fieldsRefused(await patch({ name: '' }))).toEqual(['name']);
    expect(await fieldsRefused(await patch({ sport: 'surfing' }))).toEqual(['sport']);
    expect(await fieldsRefused(await patch({ reminderCadence: 'monthly' }))).toEqual(['reminderCadence']);
    expect((await patch({ lastOpenedAt: new Date().toISOString() })).status).toBe(400);
    expect(await storedList(list._id)).toMatchObject({
      name: 'Street',
      sport: 'skateboarding',
      reminderCadence: 'weekly',
    });
  });

  it("answers 404 for another rider's list and changes nothing", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const list = await createList(owner);
    const before = await storedList(list._id);
    const res = await api.fetch(`/api/tricklists/${list._id}`, {
      method: 'PATCH',
      headers: as(other),
      json: { name: 'Mine now' },
    });
    expect(res.status).toBe(404);
    expect(await storedList(list._id)).toEqual(before);
  });
});

describe('deleting a list', () => {
  it('removes the list and its tricks, and nothing of the owner’s other lists', async () => {
    const rider = await register(api);
    const [doomed, kept] = [await createList(rider), await createList(rider)];
    await addTrick(rider, doomed._id);
    await addTrick(rider, doomed._id, 'Shove-it');
    await addTrick(rider, kept._id);
    const res = await api.fetch(`/api/tricklists/${doomed._id}`, { method: 'DELETE', headers: as(rider) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, listId: doomed._id, tricksDeleted: 2 });
    expect(await storedList(doomed._id)).toBeNull();
    expect(await storedTrickCount(doomed._id)).toBe(0);
    expect(await storedTrickCount(kept._id)).toBe(1);
    const again = await api.fetch(`/api/tricklists/${doomed._id}`, { method: 'DELETE', headers: as(rider) });
    expect(again.status).toBe(404);
  });

  it("answers 404 for another rider's list and leaves the list and its tricks", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const list = await createList(owner);
    await addTrick(owner, list._id);
    const res = await api.fetch(`/api/tricklists/${list._id}`, { method: 'DELETE', headers: as(other) });
    expect(res.status).toBe(404);
    expect(await storedList(list._id)).not.toBeNull();
    expect(await storedTrickCount(list._id)).toBe(1);
  });
});

// One line per route; bodies that would do harm if a refused caller got through.
describeAccessChecks(api, [
  { method: 'GET', path: '/api/tricklists', check: 'auth' },
  { method: 'POST', path: '/api/tricklists', check: 'auth', json: { name: 'Sneaky', sport: 'bmx' } },
  { method: 'GET', path: '/api/tricklists/:listId', check: 'auth' },
  { method: 'PATCH', path: '/api/tricklists/:listId', check: 'auth', json: { name: 'Renamed by the access table' } },
  { method: 'DELETE', path: '/api/tricklists/:listId', check: 'auth' },
]);
