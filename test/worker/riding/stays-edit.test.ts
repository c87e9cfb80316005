import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, registerAdmin } from '../../support/accounts';
import { detailFields as fields, stayCalls } from '../../support/stays';
import { createApi } from '../../support/worker-api';

const api = createApi('stays-edit');
const { newSpot, put, del, storedSpot, created } = stayCalls(api);
const HOSTEL = { name: 'Surf Hostel', type: 'hostel' };

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

describe("a spot's place and its stays", () => {
  it('refuses a spot change of country that contradicts a stay with 400 naming the field, and allows one that agrees', async () => {
    const rider = await register(api);
    const headers = { 'x-auth-token': rider.token };
    const spot = await (
      await api.fetch('/api/spots', {
        method: 'POST',
        headers,
        json: { name: 'Porto park', sports: ['bmx'], location: { lat: 41.15, lng: -8.61 }, country: 'PT' },
      })
    ).json<any>();
    await created(spot._id, rider, { ...HOSTEL, country: 'Portugal' });
    const patch = (json: object) => api.fetch(`/api/spots/${spot._id}`, { method: 'PATCH', headers, json });

    const moved = await patch({ country: 'ES' });
    expect(moved.status).toBe(400);
    expect(fields(await moved.json())).toEqual(['country']);
    expect((await storedSpot(spot._id))!.country).toBe('PT');
    expect((await patch({ country: 'pt', name: 'Porto bowl' })).status).toBe(200);
    expect((await patch({ country: null })).status).toBe(200);
  });
});
