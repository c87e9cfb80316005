import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register } from '../../support/accounts';
import { detailFields as fields, stayCalls } from '../../support/stays';
import { createApi } from '../../support/worker-api';

const api = createApi('stays');
const { newSpot, post, storedSpot, created } = stayCalls(api);
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

  it(`refuses a stay beyond the ${LIMITS.stay.perSpotMax} a spot can hold with 409`, async () => {
    const rider = await register(api);
    const now = new Date();
    const full = Array.from({ length: LIMITS.stay.perSpotMax }, (_, i) => ({
      _id: new ObjectId().toHexString(),
      name: `Stay ${i}`,
      nameKey: `stay ${i}`,
      type: 'other',
      createdAt: now,
      updatedAt: now,
    }));
    const spotId = await newSpot({ stays: full });
    const res = await post(spotId, rider, HOSTEL);
    expect(res.status).toBe(409);
    expect((await storedSpot(spotId))!.stays).toHaveLength(LIMITS.stay.perSpotMax);
  });

  it('answers 404 for an unknown spot and 400 for a malformed spot id', async () => {
    const rider = await register(api);
    expect((await post(new ObjectId().toHexString(), rider, HOSTEL)).status).toBe(404);
    expect((await post('nope', rider, HOSTEL)).status).toBe(400);
  });

  it('checks a named country against a spot created through the API, which stores its ISO code', async () => {
    const rider = await register(api);
    const res = await api.fetch('/api/spots', {
      method: 'POST',
      headers: { 'x-auth-token': rider.token },
      json: { name: 'Lisbon bowl', sports: ['skateboarding'], location: { lat: 38.72, lng: -9.14 }, country: 'PT' },
    });
    expect(res.status).toBe(201);
    const spotId = (await res.json<any>())._id;
    expect((await post(spotId, rider, { ...HOSTEL, country: 'Portugal' })).status).toBe(201);
    const elsewhere = await post(spotId, rider, { name: 'Madrid Inn', type: 'hotel', country: 'Spain' });
    expect(elsewhere.status).toBe(400);
    expect(fields(await elsewhere.json())).toEqual(['country']);
  });
});
