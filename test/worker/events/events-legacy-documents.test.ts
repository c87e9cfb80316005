import { type Collection, Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { DAY_MS, eventDoc, insertEvents } from '../../support/events';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

const api = createApi('events-legacy');

type Method = 'GET' | 'POST' | 'PATCH';

const soon = (days: number) => new Date(Date.now() + days * DAY_MS);

/** An event as ingestion writes it, with `fields` stored over it as they are. */
const odd = (fields: Record<string, unknown>) => ({ ...eventDoc(), ...fields });

/** Events as years of schemaless writes left them: each one odd in one way. */
function legacyEvents() {
  return [
    odd({ title: 'Iso Date Jam', startAt: undefined }),
    odd({ title: 12345, sports: 'skateboarding', level: { a: 1 } }),
    odd({ venue: { name: 7, city: 42, region: null, country: [], lat: '30.2', lng: new Decimal128('-97.7') } }),
    odd({ venue: 'House Park', organizer: 'Org', participation: ['x'], spectating: 'yes' }),
    odd({ createdAt: '2021-03-04T05:06:07Z', updatedAt: 1614834367000, lastSeenAt: 'garbage', endAt: '' }),
    odd({
      schedule: { a: 1 },
      sourceRefs: 'x',
      relationshipCounts: { going: '3' },
      liveCompat: 'odd',
      sourceTrust: '0.7',
    }),
    odd({ description: 'x'.repeat(20_000), __v: 3, image: { url: 'x' } }),
    odd({ sports: null, eventKinds: null, disciplines: { 0: 'street' }, intents: '' }),
    odd({ submittedBy: 'nope', possibleDuplicateOf: 'x', review: 'ok', mergedInto: null, freshness: 'x' }),
    odd({ status: 42, timeTba: 'true', isOnline: 1, timezone: 5, slug: null, dedupeKey: null }),
    odd({ startAt: soon(2), endAt: new Long(5), schemaVersion: 2, participation: null }),
  ];
}

describe('events stored as older code left them', () => {
  it('every public and admin read answers without a server error', async () => {
    const [rider, admin] = [await register(api), await registerAdmin(api)];
    const docs = legacyEvents();
    await insertEvents(api, docs);
    const ids = docs.map((doc) => doc._id.toHexString());
    const paths = [
      '/api/events',
      '/api/events?view=target',
      '/api/events?paging=keyset',
      '/api/events?paging=keyset&view=target',
      '/api/events/calendar.ics',
      '/api/events/map-pins?bbox=-180,-90,180,90',
      '/api/admin/events?limit=100',
      '/api/admin/events/duplicates',
      '/api/admin/events/stale',
      '/api/admin/event-sources',
      '/api/admin/ingestion-runs',
      ...ids.flatMap((id) => [
        `/api/events/${id}`,
        `/api/events/${id}?view=target`,
        `/api/events/${id}/calendar.ics`,
        `/api/events/${id}/similar`,
      ]),
    ];
    const failed: string[] = [];
    const expectNoServerError = async (method: Method, path: string, as: TestAccount, json?: unknown) => {
      const res = await call(api, method, path, { as, json });
      if (res.status >= 500) failed.push(`${method} ${path} ${res.status}`);
    };
    await Promise.all(paths.map((path) => expectNoServerError('GET', path, admin)));
    await Promise.all(
      ids.map(async (id) => {
        await expectNoServerError('POST', `/api/events/${id}/save`, rider);
        await expectNoServerError('PATCH', `/api/events/${id}/relationship`, rider, { relationship: 'going' });
        await expectNoServerError('PATCH', `/api/admin/events/${id}`, admin, { title: 'Edited' });
        await expectNoServerError('POST', `/api/admin/events/${id}/review`, admin, { decision: 'approve' });
      }),
    );
    for (const path of ['/api/users/me/saved-events', '/api/users/me/events'])
      await expectNoServerError('GET', path, rider);
    expect(failed).toEqual([]);
  });
});

const storedEvent = (id: unknown) => api.db((db) => db.collection('events').findOne({ _id: id as ObjectId }));
const saves = <T>(run: (rows: Collection) => Promise<T>) => api.db((db) => run(db.collection('event_saves')));

describe('one stored event read the way the service stores it', () => {
  it('reads dates stored as ISO strings or epochs, numbers as strings and a lone sport as a list', async () => {
    const doc = odd({
      startAt: soon(3).getTime(),
      createdAt: '2021-03-04T05:06:07Z',
      updatedAt: String(Date.UTC(2022, 0, 2)),
      sports: 'bmx',
      venue: { name: 'Yard', city: 42, lat: '30.25', lng: new Decimal128('-97.75') },
      possibleDuplicateOf: 'x',
    });
    await insertEvents(api, [doc]);
    const res = await call(api, 'GET', `/api/events/${doc._id.toHexString()}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      startAt: new Date(doc.startAt as number).toISOString(),
      createdAt: '2021-03-04T05:06:07.000Z',
      updatedAt: '2022-01-02T00:00:00.000Z',
      sports: ['bmx'],
      venue: { name: 'Yard', city: '42', lat: 30.25, lng: -97.75 },
    });
    const admin = await registerAdmin(api);
    const desk = await call(api, 'POST', `/api/admin/events/${doc._id.toHexString()}/verify`, { as: admin });
    expect(desk.status).toBe(200);
    expect(await desk.json()).toMatchObject({ possibleDuplicateOf: [] });
  });

  it('finds, saves and edits an event whose own id is stored as its hex string', async () => {
    const id = new ObjectId();
    await insertEvents(api, [odd({ _id: id.toHexString(), title: 'Hex Id Jam' })]);
    const [rider, admin] = [await register(api), await registerAdmin(api)];
    const found = await call(api, 'GET', `/api/events/${id.toHexString()}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ _id: id.toHexString(), title: 'Hex Id Jam' });
    expect((await call(api, 'POST', `/api/events/${id.toHexString()}/save`, { as: rider })).status).toBe(200);
    const saved = await call(api, 'GET', '/api/users/me/saved-events', { as: rider });
    expect((await saved.json<{ items: { title: string }[] }>()).items.map((item) => item.title)).toEqual([
      'Hex Id Jam',
    ]);
    const edit = await call(api, 'PATCH', `/api/admin/events/${id.toHexString()}`, {
      as: admin,
      json: { title: 'Hex Id Jam Edited' },
    });
    expect(edit.status).toBe(200);
    expect(await storedEvent(id.toHexString())).toMatchObject({ title: 'Hex Id Jam Edited' });
  });

  it('edits an event whose updatedAt is stored as a string, leaving it readable', async () => {
    const doc = odd({ updatedAt: '2020-01-01T00:00:00Z' });
    await insertEvents(api, [doc]);
    const admin = await registerAdmin(api);
    const edit = await call(api, 'PATCH', `/api/admin/events/${doc._id.toHexString()}`, {
      as: admin,
      json: { title: 'Edited Over A String Date' },
    });
    expect(edit.status).toBe(200);
    expect((await storedEvent(doc._id))?.updatedAt).toBeInstanceOf(Date);
  });

  it('moves relationship counts stored as strings as it moves numbers', async () => {
    const doc = odd({ relationshipCounts: { going: '3', interested: 'lots' } });
    await insertEvents(api, [doc]);
    const rider = await register(api);
    const res = await call(api, 'PATCH', `/api/events/${doc._id.toHexString()}/relationship`, {
      as: rider,
      json: { relationship: 'going' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ relationshipCounts: { going: 4, interested: 0 } });
    expect((await storedEvent(doc._id))?.relationshipCounts).toMatchObject({ going: 4 });
  });
});

describe('event saves stored by older code', () => {
  const savedTitles = async (as: TestAccount) =>
    (await everyPage<{ title: string }>(api, '/api/users/me/saved-events', 1, as)).flat().map((event) => event.title);

  it('a save whose ids are ObjectIds belongs to its rider: listed, not saved twice, unsaved', async () => {
    const [rider, doc] = [await register(api), odd({ title: 'ObjectId Save Jam' })];
    await insertEvents(api, [doc]);
    await saves((rows) =>
      rows.insertOne({ userId: new ObjectId(rider._id), eventId: doc._id, createdAt: '2020-05-05' }),
    );
    expect(await savedTitles(rider)).toEqual(['ObjectId Save Jam']);
    expect((await call(api, 'POST', `/api/events/${doc._id.toHexString()}/save`, { as: rider })).status).toBe(200);
    expect(await saves((rows) => rows.countDocuments({ eventId: { $in: [doc._id, doc._id.toHexString()] } }))).toBe(1);
    expect((await call(api, 'DELETE', `/api/events/${doc._id.toHexString()}/save`, { as: rider })).status).toBe(200);
    expect(await savedTitles(rider)).toEqual([]);
  });

  it('leaves an unreadable save out of the list with its event line, and the cursor still moves on', async () => {
    const rider = await register(api);
    const [older, newer] = [odd({ title: 'Older Save Jam' }), odd({ title: 'Newer Save Jam' })];
    await insertEvents(api, [older, newer]);
    const badId = new ObjectId();
    await saves((rows) =>
      rows.insertMany([
        { _id: new ObjectId(), userId: rider._id, eventId: older._id.toHexString(), createdAt: new Date() },
        { _id: badId, userId: rider._id, eventId: 'not an id', createdAt: new Date() },
        { _id: new ObjectId(), userId: rider._id, eventId: newer._id.toHexString(), createdAt: new Date() },
      ]),
    );
    let titles: string[] = [];
    const lines = await captureLogLines(async () => {
      titles = await savedTitles(rider);
    });
    expect(titles).toEqual(['Newer Save Jam', 'Older Save Jam']);
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'event_saves', id: badId.toHexString() }),
    ]);
  });
});

describe('a submission beside legacy events', () => {
  it('is checked for duplicates against a stored event whose title and city are numbers', async () => {
    const day = new Date(Date.now() + 5 * DAY_MS).toISOString().slice(0, 10);
    await insertEvents(api, [odd({ title: 12345, startAt: new Date(`${day}T12:00:00Z`), venue: { city: 42 } })]);
    const res = await call(api, 'POST', '/api/events/submit', {
      as: await register(api),
      json: {
        title: 'Legacy Neighbour Jam',
        sports: ['bmx'],
        startLocal: `${day}T11:00`,
        timezone: 'Europe/London',
        venue: { name: 'Southbank', city: 'London', country: 'GB', lat: 51.507, lng: -0.117 },
      },
    });
    expect(res.status).toBe(201);
  });
});
