import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { encodeSyncCursor } from '../../../worker/riding/spots/position';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('spot-sync');

interface SyncBody {
  spots: { _id: string; name: string; updatedAt: string }[];
  deletedIds: string[];
  nextCursor: string;
  hasMore: boolean;
  reset: boolean;
}

async function sync(query = ''): Promise<SyncBody> {
  const res = await api.fetch(`/api/spots/sync${query}`);
  expect(res.status).toBe(200);
  return res.json<SyncBody>();
}

/** Follows nextCursor while hasMore, as the extension does; returns every page. */
async function syncAll(since: string | undefined, limit: number): Promise<SyncBody[]> {
  const pages: SyncBody[] = [];
  let cursor = since;
  do {
    const params = new URLSearchParams({ limit: String(limit), ...(cursor ? { since: cursor } : {}) });
    pages.push(await sync(`?${params}`));
    cursor = pages[pages.length - 1]!.nextCursor;
  } while (pages[pages.length - 1]!.hasMore);
  return pages;
}

const ids = (pages: SyncBody[]) => pages.flatMap((p) => p.spots.map((s) => s._id));

async function createSpot(account: TestAccount, name: string) {
  const res = await api.fetch('/api/spots', {
    method: 'POST',
    headers: { 'x-auth-token': account.token },
    json: { name, sports: ['skateboarding'], location: { lat: 52.5, lng: 13.4 } },
  });
  return res.json<{ _id: string; updatedAt: string }>();
}

const storedSpot = (name: string, updatedAt: Date) => ({
  _id: new ObjectId(),
  name,
  sports: ['bmx'],
  location: { type: 'Point', coordinates: [13.4, 52.5] },
  createdAt: updatedAt,
  updatedAt,
});

describe('spot sync', () => {
  it('starts with a full sync in pages when since is absent, oldest change first', async () => {
    const rider = await register(api);
    const created = [await createSpot(rider, 'one'), await createSpot(rider, 'two'), await createSpot(rider, 'three')];
    const pages = await syncAll(undefined, 2);
    expect(pages[0]!.reset).toBe(true);
    expect(pages.slice(1).every((p) => !p.reset)).toBe(true);
    expect(pages.length).toBeGreaterThan(1);
    const seen = ids(pages);
    expect(seen).toEqual(expect.arrayContaining(created.map((s) => s._id)));
    expect(seen.indexOf(created[0]!._id)).toBeLessThan(seen.indexOf(created[2]!._id));
  });

  it('never skips two spots changed in the same millisecond, even one per page', async () => {
    const at = new Date(Date.now() - 60_000 - Math.floor(Math.random() * 60_000));
    const twins = [storedSpot('twin a', at), storedSpot('twin b', at)];
    await api.db((db) => db.collection('spots').insertMany(twins));
    // Just before `at`, so the twins open the walk and the first page ends between them.
    const since = encodeSyncCursor({ n: at.getTime() - 1, id: new ObjectId(), coveredFrom: Date.now() });
    const first = await sync(`?since=${since}&limit=1`);
    expect(first.spots.map((s) => s.name)).toEqual(['twin a']);
    expect(first.hasMore).toBe(true);
    const second = await sync(`?since=${first.nextCursor}&limit=1`);
    expect(second.spots.map((s) => s.name)).toEqual(['twin b']);
  });

  it('sends spots changed since the cursor and the ids of spots deleted since', async () => {
    const rider = await register(api);
    const kept = await createSpot(rider, 'kept');
    const gone = await createSpot(rider, 'gone');
    const cursor = (await syncAll(undefined, 1000)).at(-1)!.nextCursor;
    await api.fetch(`/api/spots/${kept._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': rider.token },
      json: { name: 'kept, renamed' },
    });
    await api.fetch(`/api/spots/${gone._id}`, { method: 'DELETE', headers: { 'x-auth-token': rider.token } });
    const pages = await syncAll(cursor, 1000);
    expect(pages[0]!.reset).toBe(false);
    const spots = pages.flatMap((p) => p.spots);
    expect(spots.find((s) => s._id === kept._id)?.name).toBe('kept, renamed');
    expect(spots.map((s) => s._id)).not.toContain(gone._id);
    expect(pages.flatMap((p) => p.deletedIds)).toContain(gone._id);
  });

  it('sends again a write stored after a sync but stamped just before it (settle window)', async () => {
    const rider = await register(api);
    const latest = await createSpot(rider, 'latest');
    const cursor = (await syncAll(undefined, 1000)).at(-1)!.nextCursor;
    // A slower Worker stamped this a millisecond before `latest` but stored it after the sync ran.
    const late = storedSpot('late', new Date(new Date(latest.updatedAt).getTime() - 1));
    await api.db((db) => db.collection('spots').insertOne(late));
    expect(ids(await syncAll(cursor, 1000))).toContain(late._id.toHexString());
  });

  it('restarts as a full sync when the cursor is older than the deletions kept', async () => {
    const old = Date.now() - (LIMITS.spotTombstoneDays + 1) * 86_400_000;
    const since = encodeSyncCursor({ n: old, id: new ObjectId(), coveredFrom: old });
    const page = await sync(`?since=${since}`);
    expect(page.reset).toBe(true);
  });

  it('refuses a forged cursor with 400 naming since, and a limit over the maximum', async () => {
    for (const [query, field] of [
      ['since=forged', 'since'],
      [`since=${btoa('1~zz')}`, 'since'],
      [`limit=${LIMITS.spotSync.pageMax + 1}`, 'limit'],
    ]) {
      const res = await api.fetch(`/api/spots/sync?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json<any>()).details.map((d: any) => d.field)).toContain(field);
    }
  });

  it('serves a spot stored without timestamps (older data) on read, search and sync', async () => {
    const _id = new ObjectId();
    await api.db((db) => db.collection('spots').insertOne({ _id, name: 'Old ledge', sports: ['skateboarding'] }));
    const res = await api.fetch(`/api/spots/${_id.toHexString()}`);
    expect(res.status).toBe(200);
    expect((await res.json<any>()).createdAt).toBe(_id.getTimestamp().toISOString());
    expect((await api.fetch('/api/spots?q=Old%20ledge')).status).toBe(200);
    const pages = await syncAll(undefined, 1000);
    expect(pages.flatMap((page) => page.spots.map((spot) => spot._id))).toContain(_id.toHexString());
  });

  it('keeps tombstones at least 30 days (TTL index on spot_tombstones)', async () => {
    await sync();
    const indexes = await api.db((db) => db.collection('spot_tombstones').listIndexes().toArray());
    const ttl = indexes.find((i) => i.expireAfterSeconds !== undefined);
    expect(ttl?.expireAfterSeconds).toBeGreaterThanOrEqual(30 * 86_400);
  });
});

describe('spot sync sees stay changes', () => {
  it('moves a spot into the next sync page when one of its stays is added, replaced or removed', async () => {
    const owner = await register(api);
    const res = await api.fetch('/api/spots', {
      method: 'POST',
      headers: { 'x-auth-token': owner.token },
      json: { name: 'Stay sync spot', sports: ['bmx'], location: { lat: 10, lng: 10 } },
    });
    const spot = await res.json<any>();
    const settled = async () => {
      // Past the settle window, so the cursor is not held back behind the write.
      await api.db((db) =>
        db
          .collection('spots')
          .updateOne({ _id: new ObjectId(spot._id) }, { $set: { updatedAt: new Date(Date.now() - 60_000) } }),
      );
      const pages = await syncAll(undefined, 1000);
      return pages.at(-1)!.nextCursor;
    };
    const changedSince = async (cursor: string) =>
      (await syncAll(cursor, 1000)).flatMap((page) => page.spots.map((each) => each._id)).includes(spot._id);
    const stays = `/api/spots/${spot._id}/stays`;
    const headers = { 'x-auth-token': owner.token };

    let cursor = await settled();
    const created = await api.fetch(stays, { method: 'POST', headers, json: { name: 'Inn', type: 'hotel' } });
    expect(created.status).toBe(201);
    expect(await changedSince(cursor)).toBe(true);

    const stayId = (await created.json<any>())._id;
    cursor = await settled();
    await api.fetch(`${stays}/${stayId}`, { method: 'PUT', headers, json: { name: 'Inn 2', type: 'hotel' } });
    expect(await changedSince(cursor)).toBe(true);

    cursor = await settled();
    await api.fetch(`${stays}/${stayId}`, { method: 'DELETE', headers });
    expect(await changedSince(cursor)).toBe(true);
  });
});
