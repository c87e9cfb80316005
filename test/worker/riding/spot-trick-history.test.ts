import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('spot-trick-history');

async function insert(collection: string, doc: Record<string, unknown>): Promise<string> {
  const _id = new ObjectId();
  const now = new Date();
  await api.db((db) => db.collection(collection).insertOne({ _id, ...doc, createdAt: now, updatedAt: now }));
  return _id.toHexString();
}
const newSpot = () => insert('spots', { name: 'Hubba', sports: ['skateboarding'] });

const land = (spotId: string, account: TestAccount, json: unknown) =>
  api.fetch(`/api/spots/${spotId}/trick-history`, { method: 'POST', headers: { 'x-auth-token': account.token }, json });
const history = async (spotId: string, query = '') =>
  (await api.fetch(`/api/spots/${spotId}/trick-history${query}`)).json<any>();

describeAccessChecks(api, [
  { method: 'POST', path: '/api/spots/:spotId/trick-history', check: 'auth', json: { trickName: 'Kickflip' } },
]);

describe('spot trick history', () => {
  it('records who landed which trick, when, and shows it publicly newest first', async () => {
    const [spotId, rider] = [await newSpot(), await register(api, { name: 'Rayssa' })];
    const trickipediaId = await insert('trickipedia', {
      name: 'Kickflip',
      slug: `kickflip-${crypto.randomUUID()}`,
      sport: 'skateboarding',
    });
    const first = await land(spotId, rider, { trickName: 'Ollie', landedAt: '2026-11-01T10:00:00Z' });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ spotId, trickName: 'Ollie', landedAt: '2026-11-01T10:00:00.000Z' });
    const second = await land(spotId, rider, {
      trickName: 'Kickflip',
      trickipediaId,
      videoUrl: 'https://v.example.com/k',
    });
    expect(second.status).toBe(201);

    const page = await history(spotId);
    expect(page.items.map((item: any) => item.trickName)).toEqual(['Kickflip', 'Ollie']);
    expect(page.items[0]).toMatchObject({
      trickipediaId,
      videoUrl: 'https://v.example.com/k',
      user: { _id: rider._id, name: 'Rayssa' },
    });
    expect(page.items[0].user).not.toHaveProperty('email');
    expect(Date.parse(page.items[0].landedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    [{}, 'trickName'],
    [{ trickName: '  ' }, 'trickName'],
    [{ trickName: 'x'.repeat(101) }, 'trickName'],
    [{ trickName: 'Ollie', landedAt: 'yesterday' }, 'landedAt'],
    [{ trickName: 'Ollie', landedAt: '2099-01-01T00:00:00Z' }, 'landedAt'],
    [{ trickName: 'Ollie', videoUrl: 'ftp://example.com/v' }, 'videoUrl'],
    [{ trickName: 'Ollie', trickipediaId: 'abc' }, 'trickipediaId'],
    [{ trickName: 'Ollie', trickipediaId: new ObjectId().toHexString() }, 'trickipediaId'],
    [{ trickName: 'Ollie', rider: 'me' }, 'request body'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const res = await land(spotId, rider, body);
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await history(spotId)).items).toEqual([]);
  });

  it('answers 404 for an unknown spot', async () => {
    const rider = await register(api);
    const unknown = new ObjectId().toHexString();
    expect((await land(unknown, rider, { trickName: 'Ollie' })).status).toBe(404);
    expect((await api.fetch(`/api/spots/${unknown}/trick-history`)).status).toBe(404);
  });

  it('pages with a cursor', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    for (const trickName of ['A', 'B', 'C']) await land(spotId, rider, { trickName });
    const first = await history(spotId, '?limit=2');
    const second = await history(spotId, `?limit=2&cursor=${first.nextCursor}`);
    expect([...first.items, ...second.items].map((item: any) => item.trickName)).toEqual(['C', 'B', 'A']);
    expect(second.nextCursor).toBeNull();
  });
});
