import { SignJWT } from 'jose';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { deliver, paymentEvent } from '../../support/payment-events';
import { createApi } from '../../support/worker-api';

const api = createApi('legacy-billing');

/** A token as the previous service signed it, from the stored account's fields. */
const liveToken = (id: string) =>
  new SignJWT({ _id: id, name: 'Old', email: 'old@example.com', imageUri: '', role: null })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(api.env.JWT_SECRET!));

describe('subscriptions on accounts stored by older code', () => {
  it('applies a payment event to an account whose _id was stored as a hex string, over a subscription stored as text', async () => {
    const hex = new ObjectId().toHexString();
    await api.db((db) =>
      db
        .collection<{ _id: string }>('users')
        .insertOne({ _id: hex, email: `${hex}@example.com`, name: 'Old', subscription: 'premium' } as { _id: string }),
    );
    const res = await deliver(api, paymentEvent({ userId: hex }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'applied' });
    const mine = await api.fetch('/api/users/me/subscription', { headers: { 'x-auth-token': await liveToken(hex) } });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ plan: 'premium', status: 'active', interval: 'month' });
  });

  it('shows a renewal stored as text or epoch milliseconds as a date, and an unreadable one not at all', async () => {
    for (const [renewsAt, shown] of [
      ['2027-02-03T04:05:06Z', '2027-02-03T04:05:06.000Z'],
      [1_800_000_000_000, new Date(1_800_000_000_000).toISOString()],
      ['next month', undefined],
    ] as const) {
      const id = new ObjectId();
      await api.db((db) =>
        db.collection('users').insertOne({
          _id: id,
          email: `${id}@example.com`,
          subscription: { plan: 'premium', status: 'active', renewsAt },
        }),
      );
      const res = await api.fetch('/api/users/me/subscription', {
        headers: { 'x-auth-token': await liveToken(id.toHexString()) },
      });
      expect(res.status).toBe(200);
      expect((await res.json<{ renewsAt?: string }>()).renewsAt).toBe(shown);
    }
  });
});
