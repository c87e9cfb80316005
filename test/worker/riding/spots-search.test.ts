import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { register, type TestAccount } from '../../support/accounts';
import { BERLIN, createSpot as createSpotVia, haversineKm } from '../../support/spots';
import { createApi } from '../../support/worker-api';

const api = createApi('spots-search');

const createSpot = (account: TestAccount, overrides: Record<string, unknown> = {}) =>
  createSpotVia(api, account, overrides);

describe('search', () => {
  it('filters by name or city case-insensitively and by sport, newest first, in pages', async () => {
    const rider = await register(api);
    const tag = crypto.randomUUID().slice(0, 8);
    const a = await createSpot(rider, { name: `Bowl ${tag} A`, sports: ['skateboarding'] });
    const b = await createSpot(rider, { name: `Rail ${tag} B`, sports: ['snowboarding'] });
    const c = await createSpot(rider, { name: 'Elsewhere', city: `Town${tag}`, sports: ['skateboarding'] });
    const all = await (await api.fetch(`/api/spots?q=${tag.toUpperCase()}`)).json<any>();
    expect(all.items.map((s: any) => s._id)).toEqual([c._id, b._id, a._id]);
    const skate = await (await api.fetch(`/api/spots?q=${tag}&sport=skateboarding`)).json<any>();
    expect(skate.items.map((s: any) => s._id)).toEqual([c._id, a._id]);
    const first = await (await api.fetch(`/api/spots?q=${tag}&limit=2`)).json<any>();
    expect(first.items).toHaveLength(2);
    const second = await (await api.fetch(`/api/spots?q=${tag}&limit=2&cursor=${first.nextCursor}`)).json<any>();
    expect(second).toEqual({ items: [expect.objectContaining({ _id: a._id })], nextCursor: null });
  });

  it('sorts a near search by distance with distanceKm from the database, within the radius', async () => {
    const rider = await register(api);
    const tag = crypto.randomUUID().slice(0, 8);
    const places = {
      potsdam: { lat: 52.3906, lng: 13.0645 },
      center: { lat: 52.5205, lng: 13.4095 },
      leipzig: { lat: 51.3397, lng: 12.3731 },
      hamburg: { lat: 53.5511, lng: 9.9937 },
    };
    for (const [name, location] of Object.entries(places))
      await createSpot(rider, { name: `${name} ${tag}`, location });
    const res = await api.fetch(`/api/spots?q=${tag}&near=${BERLIN.lat},${BERLIN.lng}&radiusKm=200`);
    expect(res.status).toBe(200);
    const { items } = await res.json<any>();
    expect(items.map((s: any) => s.name.split(' ')[0])).toEqual(['center', 'potsdam', 'leipzig']);
    for (const item of items) expect(item.distanceKm).toBeCloseTo(haversineKm(BERLIN, item.location), 2);
    const close = await (
      await api.fetch(`/api/spots?q=${tag}&near=${BERLIN.lat},${BERLIN.lng}&radiusKm=1`)
    ).json<any>();
    expect(close.items.map((s: any) => s.name)).toEqual([`center ${tag}`]);
  });

  it('uses the default radius without radiusKm, and pages a near search without skipping equal distances', async () => {
    const rider = await register(api);
    const tag = crypto.randomUUID().slice(0, 8);
    // Two spots at the same point: the cursor must tell them apart by id.
    const twins = [await createSpot(rider, { name: `twin ${tag}` }), await createSpot(rider, { name: `twin ${tag}` })];
    const far = await createSpot(rider, { name: `far ${tag}`, location: { lat: 48.1351, lng: 11.582 } });
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await (await api.fetch(`/api/spots?q=${tag}&near=52.52,13.405&limit=1${cursor}`)).json<any>();
      seen.push(...page.items.map((s: any) => s._id));
      cursor = page.nextCursor ? `&cursor=${page.nextCursor}` : '';
    } while (cursor);
    expect(seen.sort()).toEqual(twins.map((s) => s._id).sort());
    expect(seen).not.toContain(far._id);
    expect(haversineKm(BERLIN, far.location)).toBeGreaterThan(LIMITS.spotSearchRadiusKm.default);
  });

  it('refuses a malformed near, a radius over the maximum, a radius without near and a forged cursor', async () => {
    for (const [query, field] of [
      ['near=52.5', 'near'],
      ['near=91,0', 'near'],
      [`near=1,1&radiusKm=${LIMITS.spotSearchRadiusKm.max + 1}`, 'radiusKm'],
      ['radiusKm=5', 'radiusKm'],
      ['sport=surfing', 'sport'],
      ['cursor=bm9wZQ', 'cursor'],
    ]) {
      const res = await api.fetch(`/api/spots?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json<any>()).details.map((d: any) => d.field)).toContain(field);
    }
  });
});
