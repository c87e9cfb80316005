import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin } from '../../support/accounts';
import { call, refusedFields } from '../../support/content';
import { eventDoc, insertEvents, listedIds, uniqueTitle } from '../../support/events';
import { createApi } from '../../support/worker-api';

// Community submissions. The desk's approval is in event-desk.test.ts.

const api = createApi('event-submissions', { EVENT_SUBMISSIONS_PER_DAY: '3' });

describeAccessChecks(api, [{ method: 'POST', path: '/api/events/submit', check: 'auth' }]);

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);
const localDay = (days: number) => inDays(days).toISOString().slice(0, 10);

const submission = (fields: Record<string, unknown> = {}) => ({
  title: uniqueTitle('Community Bowl Jam'),
  sports: ['skateboarding'],
  startLocal: `${localDay(3)}T10:00`,
  endLocal: `${localDay(3)}T18:00`,
  timezone: 'America/Chicago',
  venue: { name: 'House Park', city: 'Austin', region: 'TX', country: 'US', lat: 30.27, lng: -97.74 },
  level: ['open', 'amateur'],
  intents: ['compete'],
  participation: { registrationStatus: 'open', priceText: '$10' },
  ...fields,
});

describe('POST /api/events/submit', () => {
  it('stores a valid submission pending (201) with its times in UTC, out of every public list, map and calendar', async () => {
    const rider = await register(api);
    const res = await call(api, 'POST', '/api/events/submit', { as: rider, json: submission() });
    expect(res.status).toBe(201);
    const body = await res.json<Record<string, any>>();
    expect(body).toMatchObject({ approvalStatus: 'pending', timezone: 'America/Chicago', possibleDuplicateOf: [] });
    // Chicago is UTC-5 or UTC-6 by the date; either way 10:00 local is 15:00 or 16:00 UTC.
    expect(body.startAt.slice(0, 10)).toBe(localDay(3));
    expect(['15:00', '16:00']).toContain(body.startAt.slice(11, 16));
    expect(body.venue.location).toEqual({ type: 'Point', coordinates: [-97.74, 30.27] });

    expect(await listedIds(api)).not.toContain(body._id);
    const pins = await (await call(api, 'GET', '/api/events/map-pins?bbox=-100,29,-95,33')).json<{
      pins: { id: string }[];
    }>();
    expect(pins.pins.map((pin) => pin.id)).not.toContain(body._id);
    expect(await (await call(api, 'GET', '/api/events/calendar.ics')).text()).not.toContain(body._id);
    expect((await call(api, 'GET', `/api/events/${body._id}`)).status).toBe(404);
    expect((await call(api, 'GET', `/api/events/${body.slug}`)).status).toBe(404);
    expect((await call(api, 'GET', `/api/events/${body._id}`, { as: await register(api) })).status).toBe(404);

    // Its submitter and admins read it.
    const own = await call(api, 'GET', `/api/events/${body.slug}?view=target`, { as: rider });
    expect(own.status).toBe(200);
    expect((await own.json<{ approvalStatus: string }>()).approvalStatus).toBe('pending');
    expect((await call(api, 'GET', `/api/events/${body._id}`, { as: await registerAdmin(api) })).status).toBe(200);
  });

  it('converts a local time on a DST night with the zone rules (Europe/Berlin spring forward)', async () => {
    const rider = await register(api);
    const res = await call(api, 'POST', '/api/events/submit', {
      as: rider,
      json: submission({
        startLocal: '2031-03-30T01:30',
        endLocal: '2031-03-30T03:30',
        timezone: 'Europe/Berlin',
        schedule: [{ name: 'Finals', startLocal: '2031-03-30T12:00', endLocal: '2031-03-30T14:00' }],
      }),
    });
    expect(res.status).toBe(201);
    const body = await res.json<Record<string, any>>();
    expect(body.startAt).toBe('2031-03-30T00:30:00.000Z'); // CET, before the jump
    expect(body.endAt).toBe('2031-03-30T01:30:00.000Z'); // CEST, after it
    expect(body.schedule).toEqual([
      { name: 'Finals', startAt: '2031-03-30T10:00:00.000Z', endAt: '2031-03-30T12:00:00.000Z' },
    ]);
  });

  it('answers 400 naming each bad field', async () => {
    const rider = await register(api);
    const res = await call(api, 'POST', '/api/events/submit', {
      as: rider,
      json: {
        title: '',
        sports: ['curling'],
        startLocal: 'tomorrow',
        timezone: 'Mars/Olympus',
        level: ['invite-only'],
        participation: { registrationStatus: 'maybe' },
        venue: { name: 'Nowhere', lat: 30 },
      },
    });
    expect(res.status).toBe(400);
    expect((await refusedFields(res)).sort()).toEqual(
      [
        'title',
        'sports.0',
        'startLocal',
        'timezone',
        'level.0',
        'participation.registrationStatus',
        'venue.lng',
      ].sort(),
    );

    const noPlace = await call(api, 'POST', '/api/events/submit', {
      as: rider,
      json: submission({ venue: { name: 'Somewhere' } }),
    });
    expect(await refusedFields(noPlace)).toEqual(['venue.city']);
    const online = await call(api, 'POST', '/api/events/submit', {
      as: rider,
      json: submission({ venue: undefined, isOnline: true }),
    });
    expect(online.status).toBe(201);

    const backwards = await call(api, 'POST', '/api/events/submit', {
      as: rider,
      json: submission({ startLocal: '2031-06-01T18:00', endLocal: '2031-06-01T10:00' }),
    });
    expect(await refusedFields(backwards)).toEqual(['endLocal']);
  });

  it('stores a submission given in the target form (startAt/endAt with an offset, venue.location) as the same event in wall-clock form', async () => {
    const rider = await register(api);
    const title = uniqueTitle('Target Form Jam');
    const place = { name: 'House Park', city: 'Austin', region: 'TX', country: 'US' };
    const stored = async (json: Record<string, unknown>) => {
      const res = await call(api, 'POST', '/api/events/submit', { as: rider, json: submission({ title, ...json }) });
      expect(res.status).toBe(201);
      const { _id } = await res.json<{ _id: string }>();
      return api.db((db) => db.collection('events').findOne({ _id: new ObjectId(_id) }));
    };
    const local = await stored({
      startLocal: '2031-06-14T10:00',
      endLocal: '2031-06-14T18:00',
      schedule: [{ name: 'Finals', startLocal: '2031-06-14T15:00', endLocal: '2031-06-14T17:00' }],
      venue: { ...place, lat: 30.27, lng: -97.74 },
    });
    const target = await stored({
      startLocal: undefined,
      endLocal: undefined,
      startAt: '2031-06-14T10:00:00-05:00',
      endAt: '2031-06-14T23:00:00Z',
      schedule: [{ name: 'Finals', startAt: '2031-06-14T20:00:00Z', endAt: '2031-06-14T17:00:00-05:00' }],
      venue: { ...place, location: { type: 'Point', coordinates: [-97.74, 30.27] } },
    });
    // Everything but identity, bookkeeping times and the duplicate link (the second is a look-alike of the first).
    const own = ['_id', 'slug', 'dedupeKey', 'sourceId', 'possibleDuplicateOf', 'createdAt', 'updatedAt', 'lastSeenAt'];
    const content = (doc: Record<string, unknown> | null) =>
      Object.fromEntries(
        Object.entries(doc ?? {}).filter(([key]) => ![...own, 'submittedAt', 'freshness'].includes(key)),
      );
    expect(content(target)).toEqual(content(local));
    expect(target?.startAt).toEqual(new Date('2031-06-14T15:00:00.000Z'));
    expect(target?.venue).toMatchObject({
      lat: 30.27,
      lng: -97.74,
      location: { type: 'Point', coordinates: [-97.74, 30.27] },
    });
  });

  it('answers 400 naming both fields when one field comes in both forms, and naming an instant without an offset', async () => {
    const rider = await register(api);
    const refused = async (fields: Record<string, unknown>) => {
      const res = await call(api, 'POST', '/api/events/submit', { as: rider, json: submission(fields) });
      expect(res.status).toBe(400);
      return res.json<{ error: string; details: { field: string; message: string }[] }>();
    };
    const times = await refused({ startAt: '2031-06-14T10:00:00-05:00' });
    expect(times.details.map((d) => d.field).sort()).toEqual(['startAt', 'startLocal']);
    expect(times.details.find((d) => d.field === 'startAt')?.message).toContain('startLocal');
    const ends = await refused({ endAt: '2031-06-14T23:00:00Z' });
    expect(ends.details.map((d) => d.field).sort()).toEqual(['endAt', 'endLocal']);
    const place = await refused({
      venue: { city: 'Austin', lat: 30.27, lng: -97.74, location: { type: 'Point', coordinates: [-97.74, 30.27] } },
    });
    expect(place.details.map((d) => d.field).sort()).toEqual(['venue.lat', 'venue.lng', 'venue.location']);
    expect(place.details.find((d) => d.field === 'venue.location')?.message).toContain('venue.lat');
    const session = await refused({
      schedule: [{ name: 'Finals', startLocal: '2031-06-14T15:00', startAt: '2031-06-14T20:00:00Z' }],
    });
    expect(session.details.map((d) => d.field).sort()).toEqual(['schedule.0.startAt', 'schedule.0.startLocal']);

    const naive = await refused({ startLocal: undefined, startAt: '2031-06-14T10:00:00', endLocal: undefined });
    expect(naive.details.map((d) => d.field)).toEqual(['startAt']);
    expect(naive.details[0]?.message).toContain('offset');
    const neither = await refused({ startLocal: undefined, endLocal: undefined });
    expect(neither.details.map((d) => d.field)).toEqual(['startLocal']);
    const backwards = await refused({
      endLocal: undefined,
      endAt: '2031-06-14T09:00:00Z',
      startLocal: '2031-06-14T10:00',
    });
    expect(backwards.details.map((d) => d.field)).toEqual(['endAt']);
  });

  it('limits a rider to the daily allowance (setting), then 429 with Retry-After; refused bodies do not count', async () => {
    const rider = await register(api);
    expect((await call(api, 'POST', '/api/events/submit', { as: rider, json: { title: 'x' } })).status).toBe(400);
    for (let i = 0; i < 3; i += 1) {
      expect((await call(api, 'POST', '/api/events/submit', { as: rider, json: submission() })).status).toBe(201);
    }
    const refused = await call(api, 'POST', '/api/events/submit', { as: rider, json: submission() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another rider has their own allowance.
    expect(
      (await call(api, 'POST', '/api/events/submit', { as: await register(api), json: submission() })).status,
    ).toBe(201);
  });

  it('stores a look-alike of a stored event with possibleDuplicateOf instead of refusing it', async () => {
    const rider = await register(api);
    const startAt = new Date(`${localDay(5)}T12:00:00.000Z`);
    const stored = eventDoc({ title: 'Rock and Roll Bowl Jam', startAt, venue: { name: 'Park', city: 'Austin' } });
    const elsewhere = eventDoc({ title: 'Rock and Roll Bowl Jam', startAt, venue: { name: 'Park', city: 'Dallas' } });
    await insertEvents(api, [stored, elsewhere]);
    const res = await call(api, 'POST', '/api/events/submit', {
      as: rider,
      json: submission({ title: 'Rock & Roll Bowl Jam 2031', startLocal: `${localDay(5)}T09:00`, endLocal: undefined }),
    });
    expect(res.status).toBe(201);
    const body = await res.json<{ _id: string; possibleDuplicateOf: string[] }>();
    expect(body.possibleDuplicateOf).toEqual([stored._id.toHexString()]);
    const doc = await api.db((db) => db.collection('events').findOne({ _id: new ObjectId(body._id) }));
    expect(doc?.possibleDuplicateOf).toEqual([stored._id]);
    expect(doc?.submittedBy).toEqual(new ObjectId(rider._id));
  });
});
