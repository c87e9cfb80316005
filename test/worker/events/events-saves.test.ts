import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { eventDoc, insertEvents } from '../../support/events';
import { createApi } from '../../support/worker-api';

const api = createApi('events-saves');

const save = (eventId: string, as: TestAccount) => call(api, 'POST', `/api/events/${eventId}/save`, { as });
const unsave = (eventId: string, as: TestAccount) => call(api, 'DELETE', `/api/events/${eventId}/save`, { as });
const storedSaves = (userId: string) => api.db((db) => db.collection('event_saves').find({ userId }).toArray());
const savedIds = async (as: TestAccount) =>
  (await everyPage<{ _id: string }>(api, '/api/users/me/saved-events', 2, as)).flat().map((event) => event._id);

describeAccessChecks(api, [
  { method: 'POST', path: '/api/events/:id/save', check: 'auth' },
  { method: 'DELETE', path: '/api/events/:id/save', check: 'auth' },
  { method: 'GET', path: '/api/users/me/saved-events', check: 'auth' },
]);

describe('GET /api/events/{slugOrId}', () => {
  it('finds an event by slug and by id, the same view both ways', async () => {
    const doc = eventDoc({ title: 'Slug Finder Jam', startAt: new Date('2019-05-04T12:00:00Z') });
    await insertEvents(api, [doc]);
    const bySlug = await call(api, 'GET', `/api/events/${doc.slug}`);
    expect(bySlug.status).toBe(200);
    const view = await bySlug.json<Record<string, unknown>>();
    expect(view).toMatchObject({
      _id: doc._id.toHexString(),
      slug: doc.slug,
      title: 'Slug Finder Jam',
      startAt: '2019-05-04T12:00:00.000Z',
      venue: { city: 'Austin', lat: 30.27 },
    });
    const byId = await call(api, 'GET', `/api/events/${doc._id.toHexString()}`);
    expect(await byId.json()).toEqual(view);
  });

  it('answers 404 JSON for an unknown slug or id', async () => {
    for (const key of ['no-such-event-abc123', new ObjectId().toHexString()]) {
      const res = await call(api, 'GET', `/api/events/${key}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Event not found.' });
    }
  });

  it('refuses a key longer than any slug with a 400 naming slugOrId', async () => {
    const res = await call(api, 'GET', `/api/events/${'a'.repeat(121)}`);
    expect(res.status).toBe(400);
  });
});

describe('saving events', () => {
  it('saves and unsaves, both idempotent, with ids stored as strings', async () => {
    const [rider, doc] = [await register(api), eventDoc()];
    await insertEvents(api, [doc]);
    const eventId = doc._id.toHexString();
    for (let i = 0; i < 2; i++) {
      const res = await save(eventId, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ saved: true, eventId });
    }
    const rows = await storedSaves(rider._id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: rider._id, eventId, createdAt: expect.any(Date) });
    for (let i = 0; i < 2; i++) {
      const res = await unsave(eventId, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ saved: false, eventId });
    }
    expect(await storedSaves(rider._id)).toHaveLength(0);
  });

  it('stores one save when the same event is saved twice at once (and ten times)', async () => {
    const [rider, doc] = [await register(api), eventDoc()];
    await insertEvents(api, [doc]);
    for (const times of [2, 10]) {
      await unsave(doc._id.toHexString(), rider);
      const results = await Promise.all(Array.from({ length: times }, () => save(doc._id.toHexString(), rider)));
      expect(results.map((res) => res.status)).toEqual(Array(times).fill(200));
      expect(await storedSaves(rider._id)).toHaveLength(1);
    }
  });

  it('answers 404 when saving an unknown event and stores nothing; unsaving one is a harmless 200', async () => {
    const rider = await register(api);
    const eventId = new ObjectId().toHexString();
    expect((await save(eventId, rider)).status).toBe(404);
    expect(await storedSaves(rider._id)).toHaveLength(0);
    const res = await unsave(eventId, rider);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ saved: false, eventId });
  });

  it('refuses an id that is not 24 hex characters with a 400', async () => {
    expect((await save('not-an-id', await register(api))).status).toBe(400);
  });

  it('lists only your saved events, newest saved first across pages; events gone since are left out', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const docs = Array.from({ length: 5 }, () => eventDoc());
    await insertEvents(api, docs);
    for (const index of [3, 0, 4, 1, 2]) await save(docs[index]!._id.toHexString(), rider);
    await save(docs[0]!._id.toHexString(), other);
    await api.db((db) => db.collection('events').deleteOne({ _id: docs[4]!._id }));
    expect(await savedIds(rider)).toEqual([2, 1, 0, 3].map((index) => docs[index]!._id.toHexString()));
    expect(await savedIds(other)).toEqual([docs[0]!._id.toHexString()]);
    const first = await (await call(api, 'GET', '/api/users/me/saved-events?limit=1', { as: rider })).json<any>();
    expect(first.items[0]).toMatchObject({ _id: docs[2]!._id.toHexString(), title: docs[2]!.title });
    expect(first.nextCursor).toEqual(expect.any(String));
  });
});
