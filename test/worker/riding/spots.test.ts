import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { BERLIN, createSpot as createSpotVia, spotBody } from '../../support/spots';
import { createApi } from '../../support/worker-api';

const api = createApi('spots');

const createSpot = (account: TestAccount, overrides: Record<string, unknown> = {}) =>
  createSpotVia(api, account, overrides);

describe('creating and reading spots', () => {
  it('stores the location as a GeoJSON Point [lng, lat] with the creator, and reads it back publicly', async () => {
    const rider = await register(api);
    const spot = await createSpot(rider, { description: 'Bowl and street', address: 'An der Wuhlheide' });
    expect(spot).toMatchObject({
      name: 'Mellowpark',
      sports: ['skateboarding', 'bmx'],
      location: BERLIN,
      country: 'DE',
      createdBy: rider._id,
      stayCount: 0,
    });
    const stored = await api.db((db) => db.collection('spots').findOne({ _id: new ObjectId(spot._id) }));
    expect(stored!.location).toEqual({ type: 'Point', coordinates: [BERLIN.lng, BERLIN.lat] });
    expect(stored!.createdBy).toEqual(new ObjectId(rider._id));
    const res = await api.fetch(`/api/spots/${spot._id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(spot);
  });

  it('answers 404 for an unknown spot and 400 naming spotId for a malformed one', async () => {
    expect((await api.fetch(`/api/spots/${new ObjectId().toHexString()}`)).status).toBe(404);
    const res = await api.fetch('/api/spots/nope');
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details[0].field).toBe('spotId');
  });

  it('reads spots stored without stays, and counts the stays its stays list shows', async () => {
    const now = new Date();
    const bare = { _id: new ObjectId(), name: 'Old DIY', sports: ['skateboarding'], createdAt: now, updatedAt: now };
    const stay = (name: string, sourceConfidence?: number) => ({
      _id: new ObjectId().toHexString(),
      name,
      nameKey: name.toLowerCase(),
      type: 'hostel',
      ...(sourceConfidence === undefined ? {} : { sourceConfidence }),
      createdAt: now,
      updatedAt: now,
    });
    // Two reviewed, two unreviewed (below the shown confidence, and none at all).
    const stays = [
      stay('Verified', 0.95),
      stay('Borderline', LIMITS.stay.confidenceShown),
      stay('Low', 0.3),
      stay('Unknown'),
    ];
    const withStays = { ...bare, _id: new ObjectId(), name: 'With stays', stays };
    await api.db((db) => db.collection('spots').insertMany([bare, withStays]));
    const plain = await (await api.fetch(`/api/spots/${bare._id}`)).json<any>();
    expect(plain).toMatchObject({ name: 'Old DIY', stayCount: 0, location: null, createdBy: null });
    const listed = (await (await api.fetch(`/api/spots/${withStays._id}/stays`)).json<any>()).items;
    const spot = await (await api.fetch(`/api/spots/${withStays._id}`)).json<any>();
    expect(spot.stayCount).toBe(listed.length);
    expect(spot.stayCount).toBe(2);
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a missing name', { name: undefined }, 'name'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a name that is too long', { name: 'x'.repeat(LIMITS.spot.nameMax + 1) }, 'name'],
    ['no sports', { sports: [] }, 'sports'],
    ['a sport outside the taxonomy', { sports: ['surfing'] }, 'sports.0'],
    ['a repeated sport', { sports: ['bmx', 'bmx'] }, 'sports'],
    ['a missing location', { location: undefined }, 'location'],
    ['a latitude beyond 90', { location: { lat: 91, lng: 0 } }, 'location.lat'],
    ['a longitude beyond 180', { location: { lat: 0, lng: 181 } }, 'location.lng'],
    ['a country that is not ISO 3166-1 alpha-2', { country: 'XX' }, 'country'],
    ['an unknown field', { rating: 5 }, ''],
  ];
  for (const [rule, overrides, field] of cases) {
    it(`refuses ${rule} with 400 naming ${field || 'the body'}`, async () => {
      const rider = await register(api);
      const res = await api.fetch('/api/spots', {
        method: 'POST',
        headers: { 'x-auth-token': rider.token },
        json: spotBody(overrides),
      });
      expect(res.status).toBe(400);
      const body = await res.json<any>();
      if (field) expect(body.details.map((d: any) => d.field)).toContain(field);
    });
  }
});

describe('changing and deleting', () => {
  it('lets the creator change fields, clear optional ones and move the spot, bumping updatedAt', async () => {
    const rider = await register(api);
    const spot = await createSpot(rider, { description: 'old' });
    const res = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': rider.token },
      json: { name: 'Renamed', description: null, location: { lat: 1, lng: 2 } },
    });
    expect(res.status).toBe(200);
    const changed = await res.json<any>();
    expect(changed).toMatchObject({ name: 'Renamed', location: { lat: 1, lng: 2 } });
    expect(changed).not.toHaveProperty('description');
    expect(changed.updatedAt > spot.updatedAt).toBe(true);
  });

  it('refuses an empty change with 400', async () => {
    const rider = await register(api);
    const spot = await createSpot(rider);
    const res = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': rider.token },
      json: {},
    });
    expect(res.status).toBe(400);
  });

  it("refuses another rider's change and delete with 403 JSON, and leaves the spot as it was", async () => {
    const creator = await register(api);
    const other = await register(api);
    const spot = await createSpot(creator);
    const patch = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': other.token },
      json: { name: 'Hijacked' },
    });
    expect(patch.status).toBe(403);
    expect(await patch.json()).toEqual({ error: 'Only the creator of this spot or an admin can change it.' });
    const del = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': other.token },
    });
    expect(del.status).toBe(403);
    expect(await (await api.fetch(`/api/spots/${spot._id}`)).json()).toEqual(spot);
  });

  it("lets an admin change and delete anyone's spot; a second delete is 404", async () => {
    const creator = await register(api);
    const admin = await registerAdmin(api);
    const spot = await createSpot(creator);
    const patch = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': admin.token },
      json: { sports: ['wakeboarding'] },
    });
    expect((await patch.json<any>()).sports).toEqual(['wakeboarding']);
    const del = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': admin.token },
    });
    expect(await del.json()).toEqual({ deleted: true, spotId: spot._id });
    expect((await api.fetch(`/api/spots/${spot._id}`)).status).toBe(404);
    const again = await api.fetch(`/api/spots/${spot._id}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': admin.token },
    });
    expect(again.status).toBe(404);
  });
});

describe('deleting a spot', () => {
  it('takes it out of every spot list and off the posts that named it', async () => {
    const owner = await register(api);
    const headers = { 'x-auth-token': owner.token };
    const spot = await (
      await api.fetch('/api/spots', {
        method: 'POST',
        headers,
        json: { name: 'Gone soon', sports: ['bmx'], location: { lat: 1, lng: 1 } },
      })
    ).json<any>();
    const list = await (
      await api.fetch('/api/spotlists', { method: 'POST', headers, json: { name: 'Mine' } })
    ).json<any>();
    await api.fetch(`/api/spotlists/${list._id}/spots/${spot._id}`, { method: 'PUT', headers });
    const post = await (
      await api.fetch('/api/feed', { method: 'POST', headers, json: { text: 'here', spotId: spot._id } })
    ).json<any>();

    expect((await api.fetch(`/api/spots/${spot._id}`, { method: 'DELETE', headers })).status).toBe(200);
    expect((await (await api.fetch(`/api/spotlists/${list._id}`, { headers })).json<any>()).spotIds).toEqual([]);
    expect(await (await api.fetch(`/api/feed/${post._id}`)).json()).not.toHaveProperty('spotId');
  });
});

describeAccessChecks(api, [
  { method: 'POST', path: '/api/spots', check: 'auth', json: spotBody() },
  { method: 'PATCH', path: '/api/spots/:spotId', check: 'auth', json: { name: 'Renamed by the access table' } },
  { method: 'DELETE', path: '/api/spots/:spotId', check: 'auth' },
]);
