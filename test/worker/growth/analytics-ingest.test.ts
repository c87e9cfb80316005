import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { UserDoc } from '../../../worker/accounts/documents';
import { EXCLUDED_ACCOUNT_FILTER } from '../../../worker/growth/analytics/exclusion';
import { LIMITS } from '../../../worker/platform/limits';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { createApi } from '../../support/worker-api';

const api = createApi('analytics-ingest');

type Result = { index: number; eventId: string | null; status: string; reason?: string };
type Answer = { results: Result[]; accepted: number; duplicates: number; quarantined: number };

/** An hour ago, to the millisecond: a plausible device time whenever the suite runs. */
const HOUR_AGO = new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60 * 1000).toISOString();

/** A valid anonymous envelope; `over` replaces or adds fields. */
const envelope = (over: Record<string, unknown> = {}) => ({
  eventId: crypto.randomUUID(),
  name: 'spot_viewed',
  occurredAt: HOUR_AGO,
  anonymousId: 'install-1',
  sessionId: crypto.randomUUID(),
  platform: 'ios',
  appVersion: '1.4.0',
  buildNumber: 140,
  schemaVersion: 1,
  properties: { spotId: new ObjectId().toHexString(), entryPoint: 'map' },
  ...over,
});

const send = (events: unknown[], as?: TestAccount) =>
  call(api, 'POST', '/api/analytics/events', { json: { events }, ...(as ? { as } : {}) });
async function sendOk(events: unknown[], as?: TestAccount): Promise<Answer> {
  const res = await send(events, as);
  expect(res.status).toBe(200);
  return res.json<Answer>();
}
const stored = (eventId: string) => api.db((db) => db.collection('analytics_events').find({ eventId }).toArray());
const quarantined = (eventId: string) =>
  api.db((db) => db.collection('analytics_quarantine').find({ eventId }).toArray());

/** Sends one event and expects it quarantined for `reason`, with nothing in analytics_events. */
async function expectQuarantined(event: Record<string, unknown>, reason: string, as?: TestAccount) {
  const { results } = await sendOk([event], as);
  expect(results).toEqual([{ index: 0, eventId: event.eventId, status: 'quarantined', reason }]);
  expect(await stored(event.eventId as string)).toEqual([]);
  const [row] = await quarantined(event.eventId as string);
  expect(row).toMatchObject({ reason, eventId: event.eventId });
  return row!;
}

describe('POST /api/analytics/events', () => {
  it('accepts a valid anonymous batch, stores each envelope with the server receivedAt', async () => {
    const before = Date.now();
    const events = [envelope(), envelope({ name: 'app_opened', properties: { coldStart: true } })];
    const answer = await sendOk(events);
    expect(answer).toEqual({
      results: events.map((event, index) => ({ index, eventId: event.eventId, status: 'accepted' })),
      accepted: 2,
      duplicates: 0,
      quarantined: 0,
    });
    const [doc] = await stored(events[0]!.eventId);
    expect(doc).toMatchObject({
      name: 'spot_viewed',
      userId: null,
      anonymousId: 'install-1',
      platform: 'ios',
      authenticated: false,
    });
    expect(doc!.occurredAt).toEqual(new Date(HOUR_AGO));
    expect(doc!.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("ignores fields the envelope does not define (a client receivedAt, a newer app's field): accepted, none stored", async () => {
    const before = Date.now();
    const event = envelope({
      receivedAt: '2020-01-01T00:00:00Z',
      batteryLevel: 0.4,
      source: { firstTouch: 'direct', utmSource: null, landingPath: '/spots', campaignVariant: 'b' },
    });
    expect((await sendOk([event])).results).toEqual([{ index: 0, eventId: event.eventId, status: 'accepted' }]);
    const [doc] = await stored(event.eventId);
    expect(doc!.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(doc).not.toHaveProperty('batteryLevel');
    expect(doc!.source).toEqual({ firstTouch: 'direct', utmSource: null, landingPath: '/spots' });
  });

  it('a retried eventId is a duplicate, stored once', async () => {
    const event = envelope();
    await sendOk([event]);
    expect((await sendOk([event])).results[0]).toMatchObject({ status: 'duplicate' });
    expect(await stored(event.eventId)).toHaveLength(1);
  });

  it('racing retries of one eventId store it once: one accepted, the rest duplicates', async () => {
    const event = envelope();
    const answers = await Promise.all([1, 2, 3, 4].map(() => sendOk([event])));
    const statuses = answers.map((answer) => answer.results[0]!.status).sort();
    expect(statuses).toEqual(['accepted', 'duplicate', 'duplicate', 'duplicate']);
    expect(await stored(event.eventId)).toHaveLength(1);
  });

  it('racing batches that share events: each batch learns its own outcome, each event is stored once', async () => {
    const shared = envelope();
    const batches = Array.from({ length: 6 }, (_, i) => [
      envelope(),
      shared,
      envelope({ name: 'not_an_event' }),
      envelope({ properties: { spotId: new ObjectId().toHexString(), entryPoint: 'map', n: i } }),
    ]);
    const answers = await Promise.all(batches.map((events) => sendOk(events)));
    for (const [b, answer] of answers.entries()) {
      const [own, sharedResult, unknown, unknownProperty] = answer.results;
      expect(own).toEqual({ index: 0, eventId: batches[b]![0]!.eventId, status: 'accepted' });
      expect(sharedResult).toMatchObject({ index: 1, eventId: shared.eventId });
      expect(unknown).toMatchObject({ index: 2, status: 'quarantined', reason: 'unknown-name' });
      expect(unknownProperty).toMatchObject({ index: 3, status: 'quarantined', reason: 'unknown-property' });
    }
    const sharedStatuses = answers.map((answer) => answer.results[1]!.status).sort();
    expect(sharedStatuses).toEqual(['accepted', ...Array(5).fill('duplicate')]);
    expect(await stored(shared.eventId)).toHaveLength(1);
    for (const events of batches) {
      expect(await stored(events[0]!.eventId)).toHaveLength(1);
      expect(await quarantined(events[2]!.eventId)).toHaveLength(1);
      expect(await quarantined(events[3]!.eventId)).toHaveLength(1);
    }
  });

  it('the same eventId twice in one batch: the first is accepted, the second a duplicate', async () => {
    const event = envelope();
    const { results } = await sendOk([event, event]);
    expect(results.map((result) => result.status)).toEqual(['accepted', 'duplicate']);
  });

  it('quarantines an unknown name', async () => {
    await expectQuarantined(envelope({ name: 'spot_Viewed' }), 'unknown-name');
  });

  it('quarantines an unknown property, keeping its key but not its value', async () => {
    const row = await expectQuarantined(
      envelope({ properties: { spotId: new ObjectId().toHexString(), mood: 'stoked' } }),
      'unknown-property',
    );
    expect(row.propertyKeys).toEqual(['spotId', 'mood']);
    expect(JSON.stringify(row)).not.toContain('stoked');
  });

  it.each([
    ['free text in an id', { name: 'trick_viewed', properties: { trickId: 'kickflip over the big gap' } }],
    ['an email', { name: 'spot_viewed', properties: { spotId: 'rider@example.com' } }],
    ['an enum outside its set', { name: 'app_opened', properties: { entryPoint: 'my secret place' } }],
    ['exact coordinates', { name: 'spot_viewed', properties: { spotId: '52.520008,13.404954' } }],
    ['a media URL', { name: 'post_created', properties: { postId: 'https://cdn.example/p.jpg' } }],
  ])('quarantines %s as an invalid property, never storing the value', async (_, over) => {
    const row = await expectQuarantined(envelope(over), 'invalid-property');
    expect(JSON.stringify(row)).not.toMatch(/kickflip|example|secret|52\.52/);
  });

  it('quarantines free text named as a property the taxonomy does not know (a prompt)', async () => {
    await expectQuarantined(
      envelope({ name: 'ai_session_completed', properties: { surface: 'dm', prompt: 'how do I ollie' } }),
      'unknown-property',
    );
  });

  it.each([0, 2, '1', null])('quarantines schemaVersion %s', async (schemaVersion) => {
    await expectQuarantined(envelope({ schemaVersion }), 'unknown-schema-version');
  });

  it.each([
    ['more than a day ahead of the server clock', 24 * 60 * 60 * 1000 + 60_000],
    ['more than 90 days old', -(90 * 24 * 60 * 60 * 1000 + 60_000)],
  ])('quarantines an occurredAt %s as implausible-time', async (_, offsetMs) => {
    const occurredAt = new Date(Date.now() + offsetMs).toISOString();
    const row = await expectQuarantined(envelope({ occurredAt }), 'implausible-time');
    expect(row.issues).toEqual([{ path: 'occurredAt', code: offsetMs > 0 ? 'future' : 'too-old' }]);
  });

  it('accepts a device clock a few hours ahead and an event queued offline for weeks', async () => {
    const events = [
      envelope({ occurredAt: new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString() }),
      envelope({ occurredAt: new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString() }),
    ];
    expect((await sendOk(events)).accepted).toBe(2);
  });

  it('quarantines platform server from a client: only the API records server events', async () => {
    await expectQuarantined(envelope({ platform: 'server' }), 'invalid-envelope');
  });

  it("signed in: the caller's userId is accepted and stored as the caller", async () => {
    const rider = await register(api);
    const event = envelope({ userId: rider._id });
    expect((await sendOk([event], rider)).results[0]!.status).toBe('accepted');
    expect((await stored(event.eventId))[0]!.userId).toEqual(new ObjectId(rider._id));
  });

  it('signed in: an event queued before sign-in stays anonymous but is marked as sent with a token', async () => {
    const rider = await register(api);
    const event = envelope();
    expect((await sendOk([event], rider)).results[0]!.status).toBe('accepted');
    expect((await stored(event.eventId))[0]).toMatchObject({ userId: null, authenticated: true });
  });

  it("signed in: another rider's userId is quarantined as user-mismatch, filed under the caller", async () => {
    const [rider, other] = [await register(api), await register(api)];
    const row = await expectQuarantined(envelope({ userId: other._id }), 'user-mismatch', rider);
    expect(row.userId).toEqual(new ObjectId(rider._id));
  });

  it('anonymous: an event naming a userId is quarantined, as with a bad token', async () => {
    const rider = await register(api);
    await expectQuarantined(envelope({ userId: rider._id }), 'unauthenticated-user');
    const badToken = { ...rider, token: 'garbage' };
    await expectQuarantined(envelope({ userId: rider._id }), 'unauthenticated-user', badToken);
  });

  it('anonymous: an event with neither userId nor anonymousId is quarantined', async () => {
    await expectQuarantined(envelope({ anonymousId: undefined }), 'missing-identity');
  });

  it('an envelope without a UUID eventId is quarantined with eventId null', async () => {
    const { results } = await sendOk([envelope({ eventId: 'not-a-uuid' })]);
    expect(results).toEqual([{ index: 0, eventId: null, status: 'quarantined', reason: 'invalid-envelope' }]);
  });

  it('a batch holding something other than an object is malformed: 400, nothing stored', async () => {
    const event = envelope();
    expect((await send([event, 'not an event'])).status).toBe(400);
    expect(await stored(event.eventId)).toEqual([]);
  });

  it('a quarantined retry is stored once and answered the same', async () => {
    const event = envelope({ name: 'no_such_event' });
    await expectQuarantined(event, 'unknown-name');
    await expectQuarantined(event, 'unknown-name');
    expect(await quarantined(event.eventId)).toHaveLength(1);
  });

  it(`refuses more than ${LIMITS.analytics.batchMax} envelopes with 413, storing none`, async () => {
    const events = Array.from({ length: LIMITS.analytics.batchMax + 1 }, () => envelope());
    const res = await send(events);
    expect(res.status).toBe(413);
    expect(await stored(events[0]!.eventId)).toEqual([]);
    expect((await sendOk(events.slice(1))).accepted).toBe(LIMITS.analytics.batchMax);
  });

  it('refuses an empty batch with 400', async () => {
    expect((await send([])).status).toBe(400);
  });

  it('stores the events of excluded accounts (admin, bot, analyticsExcluded), which EXCLUDED_ACCOUNT_FILTER matches', async () => {
    const admin = await registerAdmin(api);
    const [bot, optedOut] = [await register(api), await register(api)];
    await api.db(async (db) => {
      await db.collection('users').updateOne({ _id: new ObjectId(bot._id) }, { $set: { isBot: true } });
      await db
        .collection('users')
        .updateOne({ _id: new ObjectId(optedOut._id) }, { $set: { analyticsExcluded: true } });
    });
    for (const account of [admin, bot, optedOut]) {
      const event = envelope({ userId: account._id });
      expect((await sendOk([event], account)).results[0]!.status).toBe('accepted');
      expect(await stored(event.eventId)).toHaveLength(1);
    }
    const regular = await register(api);
    const ids = [admin, bot, optedOut, regular].map((account) => new ObjectId(account._id));
    const excluded = await api.db((db) =>
      db
        .collection<UserDoc>('users')
        .find({ _id: { $in: ids }, ...EXCLUDED_ACCOUNT_FILTER })
        .toArray(),
    );
    expect(excluded.map((user) => user._id.toHexString()).sort()).toEqual([admin._id, bot._id, optedOut._id].sort());
  });
});
