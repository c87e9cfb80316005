import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { foldKey } from '../../../worker/riding/stays/normalise';
import { register, registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('stays-search');

type StaySeed = { name: string; type?: string } & Record<string, unknown>;

/**
 * A spot with its stays, stored directly (the search reads what is stored); each test uses a
 * country of its own so the tests' stays never meet in one search.
 */
async function spotWithStays(stays: StaySeed[], spot: Record<string, unknown> = {}): Promise<string> {
  const _id = new ObjectId();
  const now = new Date();
  const stored = stays.map((stay) => ({
    _id: new ObjectId().toHexString(),
    type: 'hotel',
    ...stay,
    nameKey: foldKey(stay.name),
    createdAt: now,
    updatedAt: now,
  }));
  await api.db((db) =>
    db
      .collection('spots')
      .insertOne({ _id, name: `Spot ${_id}`, sports: ['surf'], ...spot, stays: stored, createdAt: now }),
  );
  return _id.toHexString();
}

const aCountry = () => `Country ${crypto.randomUUID().slice(0, 8)}`;

async function search(query: Record<string, string | number>, headers: Record<string, string> = {}) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return api.fetch(`/api/stays/search?${params}`, { headers });
}

async function names(query: Record<string, string | number>): Promise<string[]> {
  const res = await search(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<any>()).items.map((item: { name: string }) => item.name);
}

/** Stays that exercise every step of the default ranking, listed here in their expected order. */
const RANKED: StaySeed[] = [
  { name: 'verified, rating 4.5', sourceConfidence: 0.95, rating: 4.5, distanceKm: 9 },
  { name: 'verified, rating 3, near', sourceConfidence: 0.9, rating: 3, distanceKm: 1 },
  { name: 'verified, rating 3, far', sourceConfidence: 1, rating: 3, distanceKm: 5 },
  { name: 'verified, no rating', sourceConfidence: 0.99 },
  { name: 'trusted, rating 5', sourceConfidence: 0.7, rating: 5 },
  { name: 'needs review, near', sourceConfidence: 0.5, distanceKm: 2 },
  { name: 'needs review, no distance', sourceConfidence: 0.69 },
];
const UNREVIEWED: StaySeed[] = [
  { name: 'below 0.50', sourceConfidence: 0.49, rating: 5 },
  { name: 'no confidence', rating: 5 },
];

describe('stay ranking', () => {
  it("orders a spot's stays by confidence band, then rating, then distance, and hides the unreviewed", async () => {
    const spotId = await spotWithStays([...UNREVIEWED, ...[...RANKED].reverse()]);
    const res = await api.fetch(`/api/spots/${spotId}/stays`);
    expect(res.status).toBe(200);
    const page = await res.json<any>();
    expect(page.items.map((item: { name: string }) => item.name)).toEqual(RANKED.map((stay) => stay.name));
    expect(page.items[0]).toMatchObject({ spotId, spotName: `Spot ${spotId}` });
    expect(page.nextCursor).toBeNull();
  });

  it('applies the same ranking across spots in the search', async () => {
    const country = aCountry();
    await spotWithStays(RANKED.slice(0, 3).map((stay) => ({ ...stay, country })));
    await spotWithStays([...RANKED.slice(3), ...UNREVIEWED].map((stay) => ({ ...stay, country })));
    expect(await names({ country })).toEqual(RANKED.map((stay) => stay.name));
  });

  it('shows unreviewed stays, ranked last, to an admin who asks with includeUnreviewed', async () => {
    const country = aCountry();
    const spotId = await spotWithStays([...UNREVIEWED, ...RANKED].map((stay) => ({ ...stay, country })));
    const admin = await registerAdmin(api);
    const all = [...RANKED, ...UNREVIEWED].map((stay) => stay.name);
    const res = await search({ country, includeUnreviewed: 'true' }, { 'x-auth-token': admin.token });
    expect((await res.json<any>()).items.map((item: { name: string }) => item.name)).toEqual(all);
    const list = await api.fetch(`/api/spots/${spotId}/stays?includeUnreviewed=true`, {
      headers: { 'x-auth-token': admin.token },
    });
    expect((await list.json<any>()).items).toHaveLength(all.length);
  });

  it('refuses includeUnreviewed with a JSON 403 to anyone but an admin, and a bad token as the access checks do', async () => {
    const rider = await register(api);
    const spotId = await spotWithStays(UNREVIEWED);
    const bad = { 'x-auth-token': 'not-a-jwt' };
    expect((await api.fetch(`/api/spots/${spotId}/stays?includeUnreviewed=true`, { headers: bad })).status).toBe(400);
    const callers: Record<string, string>[] = [{}, { 'x-auth-token': rider.token }];
    for (const headers of callers) {
      const res = await search({ includeUnreviewed: 'true' }, headers);
      expect(res.status).toBe(403);
      expect((await res.json<any>()).error).toMatch(/admins/);
      const list = await api.fetch(`/api/spots/${spotId}/stays?includeUnreviewed=true`, { headers });
      expect(list.status).toBe(403);
    }
  });

  it("answers 404 for an unknown spot's stays, and an empty page for a spot without stays", async () => {
    expect((await api.fetch(`/api/spots/${new ObjectId().toHexString()}/stays`)).status).toBe(404);
    const bare = new ObjectId();
    await api.db((db) => db.collection('spots').insertOne({ _id: bare, name: 'Bare', sports: [] }));
    expect(await (await api.fetch(`/api/spots/${bare.toHexString()}/stays`)).json()).toEqual({
      items: [],
      nextCursor: null,
    });
  });
});

describe('stay search filters', () => {
  const shown = { sourceConfidence: 0.8 };

  it('q matches part of the name in any case and with or without accents', async () => {
    const country = aCountry();
    await spotWithStays(['Hôtel Bellevue', 'BELLEVUE hostel', 'Seaside'].map((name) => ({ name, country, ...shown })));
    expect((await names({ country, q: 'bellevue' })).sort()).toEqual(['BELLEVUE hostel', 'Hôtel Bellevue']);
    expect(await names({ country, q: 'hotel bell' })).toEqual(['Hôtel Bellevue']);
  });

  it('spotId, city, country and type narrow the results; city and country in any case', async () => {
    const country = aCountry();
    const spotA = await spotWithStays([
      { name: 'A hotel', city: 'Porto', country, ...shown },
      { name: 'A hostel', type: 'hostel', city: 'Braga', country, ...shown },
    ]);
    await spotWithStays([{ name: 'B hotel', city: 'Porto', country, ...shown }]);
    expect((await names({ country, spotId: spotA })).sort()).toEqual(['A hostel', 'A hotel']);
    expect((await names({ country: country.toUpperCase(), city: 'porto' })).sort()).toEqual(['A hotel', 'B hotel']);
    expect(await names({ country, type: 'hostel' })).toEqual(['A hostel']);
  });

  it('maxPriceLevel and minRating keep only stays known to fit', async () => {
    const country = aCountry();
    await spotWithStays([
      { name: 'cheap, 4.8', priceLevel: 1, rating: 4.8, country, ...shown },
      { name: 'dear, 3.9', priceLevel: 4, rating: 3.9, country, ...shown },
      { name: 'unknown', country, ...shown },
    ]);
    expect(await names({ country, maxPriceLevel: 2 })).toEqual(['cheap, 4.8']);
    expect(await names({ country, minRating: 4 })).toEqual(['cheap, 4.8']);
    expect(await names({ country })).toHaveLength(3);
  });

  it('leaves out stays farther than maxDistanceKm (default 200) and keeps those without a distance', async () => {
    const country = aCountry();
    const far = LIMITS.stay.searchDistanceKmDefault + 50;
    await spotWithStays([
      { name: 'near', distanceKm: 3, country, ...shown },
      { name: 'at the limit', distanceKm: LIMITS.stay.searchDistanceKmDefault, country, ...shown },
      { name: 'far', distanceKm: far, country, ...shown },
      { name: 'no distance', country, ...shown },
    ]);
    expect(await names({ country })).toEqual(['near', 'at the limit', 'no distance']);
    expect(await names({ country, maxDistanceKm: far })).toEqual(['near', 'at the limit', 'far', 'no distance']);
    expect(await names({ country, maxDistanceKm: 5 })).toEqual(['near', 'no distance']);
  });

  it('near=lat,lng keeps the stays of spots within radiusKm of the point', async () => {
    const country = aCountry();
    const at = (lng: number, lat: number) => ({ location: { type: 'Point', coordinates: [lng, lat] } });
    await spotWithStays([{ name: 'Berlin stay', country, ...shown }], at(13.405, 52.52));
    await spotWithStays([{ name: 'Potsdam stay', country, ...shown }], at(13.064, 52.391));
    await spotWithStays([{ name: 'Munich stay', country, ...shown }], at(11.582, 48.135));
    await spotWithStays([{ name: 'Nowhere stay', country, ...shown }]);
    expect((await names({ country, near: '52.52,13.405' })).sort()).toEqual(['Berlin stay', 'Potsdam stay']);
    expect(await names({ country, near: '52.52,13.405', radiusKm: 10 })).toEqual(['Berlin stay']);
  });

  it.each([
    [{ near: '13.4' }, 'near'],
    [{ near: '95,13' }, 'near'],
    [{ maxPriceLevel: 5 }, 'maxPriceLevel'],
    [{ minRating: 6 }, 'minRating'],
    [{ maxDistanceKm: -1 }, 'maxDistanceKm'],
    [{ type: 'castle' }, 'type'],
    [{ spotId: 'nope' }, 'spotId'],
    [{ includeUnreviewed: 'yes' }, 'includeUnreviewed'],
    [{ cursor: 'bm90IGEgY3Vyc29y' }, 'cursor'],
    [{ limit: 101 }, 'limit'],
  ])('refuses %j with 400 naming %s', async (query, field) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details.map((d: { field: string }) => d.field)).toContain(field);
  });
});

describe('stay search pages', () => {
  it('pages through the ranking with nextCursor: every stay once, in ranking order', async () => {
    const country = aCountry();
    const stays = Array.from({ length: 25 }, (_, i) => ({
      name: `Stay ${String(i).padStart(2, '0')}`,
      country,
      sourceConfidence: [0.95, 0.75, 0.55][i % 3],
      ...(i % 4 ? { rating: i % 5 } : {}),
      ...(i % 6 ? { distanceKm: i % 7 } : {}),
    }));
    await spotWithStays(stays.slice(0, 12));
    await spotWithStays(stays.slice(12));
    const all = await names({ country, limit: 100 });
    expect(all).toHaveLength(25);

    const paged: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null && pages < 5) {
      const res = await search({ country, limit: 10, ...(cursor ? { cursor } : {}) });
      const page: { items: { name: string }[]; nextCursor: string | null } = await res.json();
      paged.push(...page.items.map((item) => item.name));
      cursor = page.nextCursor;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(paged).toEqual(all);
  });
});
