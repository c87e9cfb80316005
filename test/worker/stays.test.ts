import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../support/accounts';
import { createApi } from '../support/worker-api';

const api = createApi('stays');

/** A spot stored directly: the stays resource needs only the spot document. */
async function newSpot(fields: Record<string, unknown> = {}): Promise<string> {
  const _id = new ObjectId();
  const now = new Date();
  await api.db((db) =>
    db
      .collection('spots')
      .insertOne({ _id, name: 'Harbour park', sports: ['skateboarding'], createdAt: now, updatedAt: now, ...fields }),
  );
  return _id.toHexString();
}

const token = (account: TestAccount) => ({ 'x-auth-token': account.token });
const post = (spotId: string, account: TestAccount, json: unknown) =>
  api.fetch(`/api/spots/${spotId}/stays`, { method: 'POST', headers: token(account), json });
const put = (spotId: string, stayId: string, account: TestAccount, json: unknown) =>
  api.fetch(`/api/spots/${spotId}/stays/${stayId}`, { method: 'PUT', headers: token(account), json });
const del = (spotId: string, stayId: string, account: TestAccount) =>
  api.fetch(`/api/spots/${spotId}/stays/${stayId}`, { method: 'DELETE', headers: token(account) });
const storedSpot = (spotId: string) => api.db((db) => db.collection('spots').findOne({ _id: new ObjectId(spotId) }));

async function created(spotId: string, account: TestAccount, json: Record<string, unknown>): Promise<any> {
  const res = await post(spotId, account, json);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const fields = (res: any) => (res.details ?? []).map((d: { field: string }) => d.field);
const HOSTEL = { name: 'Surf Hostel', type: 'hostel' };

describeAccessChecks(api, [
  { method: 'POST', path: '/api/spots/:spotId/stays', check: 'auth', json: HOSTEL },
  { method: 'PUT', path: '/api/spots/:spotId/stays/:stayId', check: 'auth', json: HOSTEL },
  { method: 'DELETE', path: '/api/spots/:spotId/stays/:stayId', check: 'auth' },
]);

describe('stays: create', () => {
  it('creates a stay with every field, the caller as createdBy and a 24-hex string id', async () => {
    const [spotId, rider] = [await newSpot({ city: 'Lisbon', country: 'Portugal' }), await register(api)];
    const body = {
      name: 'Casa do Mar',
      type: 'hotel',
      priceLevel: 3,
      nightlyPriceMin: 80,
      nightlyPriceMax: 120,
      rating: 4.4,
      reviewCount: 210,
      distanceKm: 1.2,
      bookingUrl: 'https://example.com/casa',
      imageUrl: 'http://img.example.com/casa.jpg',
      address: 'Rua 1',
      city: 'lisbon',
      state: 'Lisboa',
      country: ' PORTUGAL ',
      source: 'manual',
      sourceConfidence: 0.95,
      notes: 'Board storage',
      tags: ['surf', 'parking'],
    };
    const stay = await created(spotId, rider, body);
    expect(stay).toMatchObject({
      ...body,
      country: 'PORTUGAL',
      spotId,
      spotName: 'Harbour park',
      createdBy: rider._id,
    });
    expect(stay._id).toMatch(/^[0-9a-f]{24}$/);
    expect(stay.createdAt).toBe(stay.updatedAt);
    expect(stay).not.toHaveProperty('nameKey');
    const spot = await storedSpot(spotId);
    expect(spot!.stays).toHaveLength(1);
    expect(spot!.stays[0]).toMatchObject({ _id: stay._id, nameKey: 'casa do mar', createdBy: new ObjectId(rider._id) });
  });

  it.each([
    [{ type: 'hotel' }, 'name'],
    [{ name: '   ', type: 'hotel' }, 'name'],
    [{ name: 'X' }, 'type'],
    [{ name: 'X', type: 'castle' }, 'type'],
    [{ ...HOSTEL, priceLevel: 0 }, 'priceLevel'],
    [{ ...HOSTEL, priceLevel: 5 }, 'priceLevel'],
    [{ ...HOSTEL, priceLevel: 2.5 }, 'priceLevel'],
    [{ ...HOSTEL, nightlyPriceMin: -1 }, 'nightlyPriceMin'],
    [{ ...HOSTEL, nightlyPriceMax: -1 }, 'nightlyPriceMax'],
    [{ ...HOSTEL, rating: 5.1 }, 'rating'],
    [{ ...HOSTEL, rating: -0.1 }, 'rating'],
    [{ ...HOSTEL, reviewCount: 1.5 }, 'reviewCount'],
    [{ ...HOSTEL, reviewCount: -1 }, 'reviewCount'],
    [{ ...HOSTEL, distanceKm: -1 }, 'distanceKm'],
    [{ ...HOSTEL, bookingUrl: 'not a url' }, 'bookingUrl'],
    [{ ...HOSTEL, bookingUrl: 'ftp://example.com/x' }, 'bookingUrl'],
    [{ ...HOSTEL, imageUrl: 'javascript:alert(1)' }, 'imageUrl'],
    [{ ...HOSTEL, sourceConfidence: 1.01 }, 'sourceConfidence'],
    [{ ...HOSTEL, sourceConfidence: -0.01 }, 'sourceConfidence'],
    [{ ...HOSTEL, tags: ['ok', 7] }, 'tags.1'],
    [{ ...HOSTEL, notes: 'x'.repeat(2001) }, 'notes'],
    [{ ...HOSTEL, stars: 5 }, 'request body'],
  ])('refuses %j with 400 naming %s, and stores nothing', async (body, field) => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const res = await post(spotId, rider, body);
    expect(res.status).toBe(400);
    expect(fields(await res.json())).toContain(field);
    expect((await storedSpot(spotId))!.stays).toBeUndefined();
  });

  it('refuses nightlyPriceMin above nightlyPriceMax with 400 naming both fields', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const res = await post(spotId, rider, { ...HOSTEL, nightlyPriceMin: 90, nightlyPriceMax: 60 });
    expect(res.status).toBe(400);
    expect(fields(await res.json())).toEqual(['nightlyPriceMin', 'nightlyPriceMax']);
    expect((await post(spotId, rider, { ...HOSTEL, nightlyPriceMin: 60, nightlyPriceMax: 60 })).status).toBe(201);
  });

  it('refuses a stay in another country or city than its spot with 400 naming the fields', async () => {
    const rider = await register(api);
    const spotId = await newSpot({ city: 'Munich', state: 'Bavaria', country: 'Germany' });
    const res = await post(spotId, rider, { ...HOSTEL, city: 'Vienna', state: ' bavaria', country: 'Austria' });
    expect(res.status).toBe(400);
    expect(fields(await res.json())).toEqual(['city', 'country']);
    expect((await storedSpot(spotId))!.stays).toBeUndefined();
  });

  it('accepts place fields that differ only in case, spacing or accents, or that the spot leaves unknown', async () => {
    const rider = await register(api);
    const spotId = await newSpot({ city: 'München', country: 'Germany' });
    await created(spotId, rider, { ...HOSTEL, city: ' munchen ', state: 'Bavaria', country: 'GERMANY' });
  });

  it('refuses a duplicate within a spot (same name once folded, same type) with 409, but not another type', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    await created(spotId, rider, { name: 'Hôtel  du Lac', type: 'hotel' });
    const again = await post(spotId, rider, { name: ' hotel du LAC ', type: 'hotel' });
    expect(again.status).toBe(409);
    expect(fields(await again.json())).toEqual(['name']);
    await created(spotId, rider, { name: 'Hotel du Lac', type: 'lodge' });
    await created(await newSpot(), rider, { name: 'Hotel du Lac', type: 'hotel' });
  });

  it('refuses a second stay with the same bookingUrl within a spot with 409 naming bookingUrl', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    await created(spotId, rider, { name: 'Camp A', type: 'campground', bookingUrl: 'https://EXAMPLE.com/book' });
    const res = await post(spotId, rider, {
      name: 'Camp B',
      type: 'campground',
      bookingUrl: 'https://example.com/book',
    });
    expect(res.status).toBe(409);
    expect(fields(await res.json())).toEqual(['bookingUrl']);
  });

  it('stores exactly one of 20 parallel creations of the same stay: one 201 and 19 409s', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const results = await Promise.all(Array.from({ length: 20 }, () => post(spotId, rider, HOSTEL)));
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    expect((await storedSpot(spotId))!.stays).toHaveLength(1);
  });

  it('answers 404 for an unknown spot and 400 for a malformed spot id', async () => {
    const rider = await register(api);
    expect((await post(new ObjectId().toHexString(), rider, HOSTEL)).status).toBe(404);
    expect((await post('nope', rider, HOSTEL)).status).toBe(400);
  });
});

describe('stays: replace', () => {
  it('replaces the mutable fields, keeps _id, createdAt and createdBy, and drops fields left out', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const stay = await created(spotId, rider, { ...HOSTEL, rating: 4, notes: 'Old', tags: ['a'] });
    const res = await put(spotId, stay._id, rider, { name: 'Surf Lodge', type: 'lodge', priceLevel: 2 });
    expect(res.status).toBe(200);
    const replaced = await res.json<any>();
    expect(replaced).toMatchObject({ _id: stay._id, createdAt: stay.createdAt, createdBy: rider._id, priceLevel: 2 });
    expect(replaced).toMatchObject({ name: 'Surf Lodge', type: 'lodge' });
    for (const gone of ['rating', 'notes', 'tags']) expect(replaced).not.toHaveProperty(gone);
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(stay.updatedAt));
    expect((await storedSpot(spotId))!.stays[0].nameKey).toBe('surf lodge');
  });

  it('gives the same document for the same PUT twice: the second changes nothing, not even updatedAt', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const stay = await created(spotId, rider, HOSTEL);
    const body = { name: 'Surf Hostel', type: 'hostel', tags: ['x', 'y'], nightlyPriceMin: 20, rating: 3.5 };
    const first = await (await put(spotId, stay._id, rider, body)).json();
    const storedOnce = await storedSpot(spotId);
    const second = await put(spotId, stay._id, rider, body);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(first);
    expect(await storedSpot(spotId)).toEqual(storedOnce);
  });

  it('refuses a PUT that makes the stay a duplicate of another stay of the spot, but not of itself', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    await created(spotId, rider, { name: 'Alpha', type: 'hotel', bookingUrl: 'https://example.com/a' });
    const beta = await created(spotId, rider, { name: 'Beta', type: 'hotel' });
    const byName = await put(spotId, beta._id, rider, { name: 'ALPHA', type: 'hotel' });
    expect(byName.status).toBe(409);
    const byUrl = await put(spotId, beta._id, rider, {
      name: 'Beta',
      type: 'hotel',
      bookingUrl: 'https://example.com/a',
    });
    expect(byUrl.status).toBe(409);
    expect((await put(spotId, beta._id, rider, { name: 'beta', type: 'hotel', rating: 2 })).status).toBe(200);
    expect((await storedSpot(spotId))!.stays.map((s: { name: string }) => s.name)).toEqual(['Alpha', 'beta']);
  });

  it('refuses a PUT that moves the stay to another country than its spot with 400', async () => {
    const rider = await register(api);
    const spotId = await newSpot({ country: 'France' });
    const stay = await created(spotId, rider, { ...HOSTEL, country: 'France' });
    const res = await put(spotId, stay._id, rider, { ...HOSTEL, country: 'Spain' });
    expect(res.status).toBe(400);
    expect(fields(await res.json())).toEqual(['country']);
  });

  it('answers 404 for an unknown stay or spot', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const stay = await created(spotId, rider, HOSTEL);
    expect((await put(spotId, new ObjectId().toHexString(), rider, HOSTEL)).status).toBe(404);
    expect((await put(new ObjectId().toHexString(), stay._id, rider, HOSTEL)).status).toBe(404);
  });
});

describe('stays: who may change a stay', () => {
  it("lets the stay's creator, the spot's creator and an admin replace and delete it", async () => {
    const [spotOwner, stayOwner, admin] = [await register(api), await register(api), await registerAdmin(api)];
    const spotId = await newSpot({ createdBy: new ObjectId(spotOwner._id) });
    for (const editor of [stayOwner, spotOwner, admin]) {
      const stay = await created(spotId, stayOwner, HOSTEL);
      const res = await put(spotId, stay._id, editor, { ...HOSTEL, notes: `by ${editor._id}` });
      expect(res.status).toBe(200);
      expect((await res.json<any>()).createdBy).toBe(stayOwner._id);
      expect(await (await del(spotId, stay._id, editor)).json()).toEqual({ deleted: true, stayId: stay._id });
    }
  });

  it('refuses anyone else with a JSON 403 and changes nothing', async () => {
    const [owner, stranger] = [await register(api), await register(api)];
    const spotId = await newSpot({ createdBy: new ObjectId(owner._id) });
    const stay = await created(spotId, owner, HOSTEL);
    const before = await storedSpot(spotId);
    const edit = await put(spotId, stay._id, stranger, { ...HOSTEL, notes: 'mine now' });
    expect(edit.status).toBe(403);
    expect((await edit.json<any>()).error).toMatch(/creator/);
    expect((await del(spotId, stay._id, stranger)).status).toBe(403);
    expect(await storedSpot(spotId)).toEqual(before);
  });
});

describe('stays: delete', () => {
  it('is safe to repeat: deleted true, then deleted false; an unknown spot is 404', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const stay = await created(spotId, rider, HOSTEL);
    const keep = await created(spotId, rider, { name: 'Kept', type: 'other' });
    expect(await (await del(spotId, stay._id, rider)).json()).toEqual({ deleted: true, stayId: stay._id });
    const again = await del(spotId, stay._id, rider);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ deleted: false, stayId: stay._id });
    expect((await storedSpot(spotId))!.stays.map((s: { _id: string }) => s._id)).toEqual([keep._id]);
    expect((await del(new ObjectId().toHexString(), stay._id, rider)).status).toBe(404);
  });
});
