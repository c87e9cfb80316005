import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { captureLogLines } from '../../support/log-lines';
import { deliver, paymentEvent } from '../../support/payment-events';
import { createApi } from '../../support/worker-api';

const api = createApi('subscriptions');

const mySubscription = async (who: TestAccount) => {
  const res = await api.fetch('/api/users/me/subscription', { headers: { 'x-auth-token': who.token } });
  expect(res.status).toBe(200);
  return res.json();
};
const createList = (who: TestAccount) =>
  api.fetch('/api/spotlists', { method: 'POST', headers: { 'x-auth-token': who.token }, json: { name: 'Parks' } });

describe('GET /api/users/me/subscription', () => {
  it('shows free and active for a rider who never subscribed', async () => {
    expect(await mySubscription(await register(api))).toEqual({ plan: 'free', status: 'active' });
  });

  it('shows the plan, status, interval and renewal date the provider last sent, and nothing of its bookkeeping', async () => {
    const rider = await register(api);
    await deliver(api, paymentEvent({ userId: rider._id, interval: 'year', renewsAt: '2027-11-22T10:00:00Z' }));
    expect(await mySubscription(rider)).toEqual({
      plan: 'premium',
      status: 'active',
      interval: 'year',
      renewsAt: '2027-11-22T10:00:00.000Z',
    });
  });

  it('refuses the token of a deleted account as the Live contract refuses any token it cannot accept', async () => {
    const rider = await register(api);
    await api.db((db) => db.collection('users').deleteOne({ _id: new ObjectId(rider._id) }));
    const res = await api.fetch('/api/users/me/subscription', { headers: { 'x-auth-token': rider.token } });
    expect({ status: res.status, body: await res.text() }).toEqual({ status: 400, body: 'Invalid token.' });
  });
});

describe('each event type moves the status', () => {
  it('activated, past_due, renewed, canceled and expired set the status they carry, in event time', async () => {
    const rider = await register(api);
    const steps = [
      ['subscription.activated', 'active'],
      ['subscription.past_due', 'past_due'],
      ['subscription.renewed', 'active'],
      ['subscription.canceled', 'canceled'],
      ['subscription.expired', 'expired'],
    ] as const;
    for (const [day, [type, status]] of steps.entries()) {
      const created = `2026-11-2${day}T10:00:00Z`;
      const res = await deliver(api, paymentEvent({ userId: rider._id, type, status, created, renewsAt: null }));
      expect(await res.json()).toEqual({ received: true, outcome: 'applied' });
      expect(await mySubscription(rider)).toEqual({ plan: 'premium', status, interval: 'month' });
    }
  });
});

describe('entitlements come from the webhook', () => {
  it('lifts the spot-list allowance on activation and restores it on cancellation', async () => {
    const rider = await register(api);
    for (let i = 0; i < 3; i++) expect((await createList(rider)).status).toBe(201);
    expect((await createList(rider)).status).toBe(403);

    await deliver(api, paymentEvent({ userId: rider._id, created: '2026-11-22T10:00:00Z' }));
    expect((await createList(rider)).status).toBe(201);

    const cancel = { type: 'subscription.canceled', status: 'canceled', created: '2026-11-23T10:00:00Z' };
    await deliver(api, paymentEvent({ userId: rider._id, ...cancel }));
    const refused = await createList(rider);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'Upgrade to premium for unlimited spot lists' });
  });

  it('grants nothing for an event the signature check refused', async () => {
    const rider = await register(api);
    for (let i = 0; i < 3; i++) await createList(rider);
    await deliver(api, paymentEvent({ userId: rider._id }), '0'.repeat(64));
    expect((await createList(rider)).status).toBe(403);
  });
});

describe('GET /api/subscriptions/plans', () => {
  it('lists monthly premium at 10 USD and yearly at the configured price', async () => {
    const res = await api.fetch('/api/subscriptions/plans');
    expect(await res.json()).toEqual({
      items: [
        { plan: 'premium', interval: 'month', price: 10, currency: 'USD' },
        { plan: 'premium', interval: 'year', price: Number(api.env.PREMIUM_YEARLY_PRICE_USD), currency: 'USD' },
      ],
      nextCursor: null,
    });
  });

  it('takes the yearly price from PREMIUM_YEARLY_PRICE_USD', async () => {
    const configured = createApi('subscriptions-price', { PREMIUM_YEARLY_PRICE_USD: '89.99' });
    const { items } = await (await configured.fetch('/api/subscriptions/plans')).json<{ items: { price: number }[] }>();
    expect(items[1]!.price).toBe(89.99);
  });

  it.each([
    [undefined, 'PREMIUM_YEARLY_PRICE_USD is not set'],
    ['ten', 'PREMIUM_YEARLY_PRICE_USD must be a positive amount'],
    ['0', 'PREMIUM_YEARLY_PRICE_USD must be a positive amount'],
  ])('answers 500 naming the setting when the yearly price is %s', async (value, message) => {
    const misconfigured = createApi('subscriptions-noprice', { PREMIUM_YEARLY_PRICE_USD: value });
    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await misconfigured.fetch('/api/subscriptions/plans');
    });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain(message);
    // An operator's mistake, logged as an error line naming the setting.
    expect(lines.some((line) => line.includes('"where":"setting"') && line.includes('PREMIUM_YEARLY_PRICE_USD'))).toBe(
      true,
    );
  });
});

describeAccessChecks(api, [{ method: 'GET', path: '/api/users/me/subscription', check: 'auth' }]);
