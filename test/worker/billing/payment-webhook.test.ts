import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { deliver, paymentEvent, sign } from '../../support/payment-events';
import { createApi } from '../../support/worker-api';

const api = createApi('payment-webhook');

const storedSubscription = (userId: string) =>
  api.db(async (db) => (await db.collection('users').findOne({ _id: new ObjectId(userId) }))?.subscription);
const ledger = (providerEventId: string) =>
  api.db((db) => db.collection('payment_events').find({ providerEventId }).toArray());

describe('payment webhook signature', () => {
  it('applies an event signed with the configured secret', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    const res = await deliver(api, event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'applied' });
    expect(await storedSubscription(rider._id)).toMatchObject({ plan: 'premium', status: 'active', interval: 'month' });
  });

  it('refuses a missing signature with 401 JSON and applies nothing', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    const res = await deliver(api, event, null);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Missing or invalid x-signature.' });
    expect(await storedSubscription(rider._id)).toBeUndefined();
    expect(await ledger(event.id)).toEqual([]);
  });

  it('refuses a signature made with another secret, a truncated one, and the right one in upper case', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    const raw = JSON.stringify(event);
    const right = await sign(raw, api.env.PAYMENT_WEBHOOK_SECRET!);
    for (const signature of [await sign(raw, 'another secret'), right.slice(0, 62), right.toUpperCase(), '']) {
      expect((await deliver(api, raw, signature)).status).toBe(401);
    }
    expect(await storedSubscription(rider._id)).toBeUndefined();
    expect(await ledger(event.id)).toEqual([]);
  });

  it('signs the raw bytes: the same JSON with other whitespace no longer matches', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    const signature = await sign(JSON.stringify(event), api.env.PAYMENT_WEBHOOK_SECRET!);
    expect((await deliver(api, JSON.stringify(event, null, 2), signature)).status).toBe(401);
    expect(await storedSubscription(rider._id)).toBeUndefined();
    // Pretty-printed and signed as sent, it is accepted: the bytes are what count, not a re-serialisation.
    expect((await deliver(api, JSON.stringify(event, null, 2))).status).toBe(200);
  });

  it('checks the signature before the body: an unsigned malformed body is 401, not 400', async () => {
    const res = await deliver(api, '{"id": ', null);
    expect(res.status).toBe(401);
  });

  it('answers 500 naming PAYMENT_WEBHOOK_SECRET when it is not set, and applies nothing', async () => {
    const unconfigured = createApi('payment-webhook-nosecret', { PAYMENT_WEBHOOK_SECRET: undefined });
    const rider = await register(unconfigured);
    const event = paymentEvent({ userId: rider._id });
    const res = await deliver(unconfigured, event, await sign(JSON.stringify(event), 'anything'));
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('PAYMENT_WEBHOOK_SECRET is not set');
    expect(await unconfigured.db((db) => db.collection('payment_events').countDocuments())).toBe(0);
  });
});

describe('payment webhook body', () => {
  it.each([
    ['an unknown type', { type: 'subscription.paused' }, 'type'],
    ['an unknown status', { status: 'trialing' }, 'data.status'],
    ['an unknown interval', { interval: 'week' }, 'data.interval'],
    ['a created that is not a date-time', { created: 'yesterday' }, 'created'],
    ['a user id that is not an id', { userId: 'abc' }, 'data.userId'],
    ['an empty event id', { id: '' }, 'id'],
  ])('refuses %s with 400 naming the field', async (_rule, change, field) => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id, ...change });
    const res = await deliver(api, event);
    expect(res.status).toBe(400);
    expect((await res.json<{ details: { field: string }[] }>()).details.map((d) => d.field)).toContain(field);
    expect(await storedSubscription(rider._id)).toBeUndefined();
  });

  it('refuses a plan that is not sold with 400', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    const res = await deliver(api, { ...event, data: { ...event.data, plan: 'platinum' } });
    expect(res.status).toBe(400);
  });
});

describe('each event applied at most once, in event time', () => {
  it('answers a replayed event 200 "duplicate" and changes nothing', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    expect((await deliver(api, event)).status).toBe(200);
    const before = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(rider._id) }));

    const replay = await deliver(api, event);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(rider._id) }))).toEqual(before);
    expect(await ledger(event.id)).toHaveLength(1);
  });

  it('keeps a renewed subscription active when an older cancellation arrives after it', async () => {
    const rider = await register(api);
    const renewed = paymentEvent({ userId: rider._id, type: 'subscription.renewed', created: '2026-11-22T10:00:00Z' });
    const canceled = paymentEvent({
      userId: rider._id,
      type: 'subscription.canceled',
      status: 'canceled',
      created: '2026-11-21T10:00:00Z',
    });
    await deliver(api, renewed);
    const late = await deliver(api, canceled);
    expect(await late.json()).toEqual({ received: true, outcome: 'stale' });
    expect(await storedSubscription(rider._id)).toMatchObject({ status: 'active', eventId: renewed.id });
    // The stale event is recorded, so its replay is a duplicate, not re-evaluated.
    expect((await ledger(canceled.id))[0]).toMatchObject({ outcome: 'stale' });
    expect(await (await deliver(api, canceled)).json()).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('orders two events stamped in the same instant by id, whatever order they arrive in', async () => {
    const [first, second] = [await register(api), await register(api)];
    const at = '2026-11-22T10:00:00Z';
    const events = (userId: string) => [
      paymentEvent({
        userId,
        id: `evt_same_a_${userId}`,
        created: at,
        status: 'past_due',
        type: 'subscription.past_due',
      }),
      paymentEvent({ userId, id: `evt_same_b_${userId}`, created: at, status: 'active' }),
    ];
    for (const event of events(first._id)) await deliver(api, event);
    for (const event of events(second._id).reverse()) await deliver(api, event);
    expect(await storedSubscription(first._id)).toMatchObject({ status: 'active' });
    expect(await storedSubscription(second._id)).toMatchObject({ status: 'active' });
  });

  it('applies the same event delivered 5 times in parallel exactly once', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => (await deliver(api, event)).json<{ outcome: string }>()),
    );
    expect(answers.map((a) => a.outcome).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await ledger(event.id)).toHaveLength(1);
    expect(await storedSubscription(rider._id)).toMatchObject({ status: 'active', eventId: event.id });
  });

  it('re-applies an event whose first delivery stopped after recording it', async () => {
    const rider = await register(api);
    const event = paymentEvent({ userId: rider._id });
    // What a crash between the ledger write and the user update leaves behind.
    await api.db((db) =>
      db.collection('payment_events').insertOne({
        providerEventId: event.id,
        type: event.type,
        created: new Date(event.created),
        userId: new ObjectId(rider._id),
        receivedAt: new Date(),
      }),
    );
    expect(await (await deliver(api, event)).json()).toEqual({ received: true, outcome: 'applied' });
    expect(await storedSubscription(rider._id)).toMatchObject({ status: 'active' });
    expect((await ledger(event.id))[0]).toMatchObject({ outcome: 'applied' });
  });

  it('answers 200 "unknown-user" for an account that does not exist, and keeps no user id', async () => {
    const ghost = new ObjectId().toHexString();
    const event = paymentEvent({ userId: ghost });
    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await deliver(api, event);
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'unknown-user' });
    expect(eventLines(lines, 'payments.event.unknown-account')).toEqual([
      expect.objectContaining({
        level: 'warn',
        paymentEventId: event.id,
        type: event.type,
        requestId: res.headers.get('x-request-id'),
      }),
    ]);
    expect(await api.db((db) => db.collection('users').countDocuments({ _id: new ObjectId(ghost) }))).toBe(0);
    const [row] = await ledger(event.id);
    expect(row).toMatchObject({ outcome: 'unknown-user' });
    expect(row).not.toHaveProperty('userId');
  });
});
