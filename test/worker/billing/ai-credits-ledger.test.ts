import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { addCredits } from '../../../worker/billing/ai-credits/ledger';
import {
  finishReservation,
  type Reservation,
  reserveCredits,
  sweepStaleReservations,
} from '../../../worker/billing/ai-credits/reservations';
import type { Store } from '../../../worker/platform/db/store';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import {
  creditState,
  grantCredits,
  MONTHLY_GRANT_CRON,
  myCredits,
  runCron,
  SWEEP_CRON,
  withStore,
} from '../../support/ai-credits';
import { newPost } from '../../support/feed';
import { deliver } from '../../support/payment-events';
import { setSubscription } from '../../support/spot-lists';
import { createSpot } from '../../support/spots';
import { addTrick, as, createList } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

// The credit ledger: how credit arrives, how it is read, the sweep, and the ledger's invariant.
const api = createApi('ai-credits-ledger');
const admin = registerAdmin(api);
const MINUTE = 60_000;

const purchase = (userId: string, credits: number, id = `evt_${crypto.randomUUID()}`) => ({
  id,
  type: 'credits.purchased',
  created: '2026-11-22T10:00:00Z',
  data: { userId, credits },
});

describe('credits arriving', () => {
  it('adds a credits.purchased webhook once, however often and however parallel it is delivered', async () => {
    const rider = await register(api);
    const event = purchase(rider._id, 300);
    const first = await deliver(api, event);
    expect(await first.json()).toEqual({ received: true, outcome: 'applied' });
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliver(api, event)));
    for (const replay of replays) expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await creditState(api, rider)).toMatchObject({ balance: 300, ledgerSum: 300 });
    expect((await creditState(api, rider)).entries).toEqual([{ kind: 'purchase', amount: 300 }]);
  });

  it('refuses a purchase without credits, and answers an unknown account without creating one', async () => {
    const rider = await register(api);
    const bad = await deliver(api, { ...purchase(rider._id, 0) });
    expect(bad.status).toBe(400);
    const ghost = new ObjectId().toHexString();
    expect(await (await deliver(api, purchase(ghost, 5))).json()).toMatchObject({ outcome: 'unknown-user' });
    expect(await creditState(api, ghost)).toMatchObject({ balance: 0, entries: [] });
  });

  it('grants premium riders their monthly credits once per month however often the job runs', async () => {
    const [premium, free, late] = [await register(api), await register(api), await register(api)];
    await setSubscription(api, premium);
    await runCron(api, MONTHLY_GRANT_CRON);
    await runCron(api, MONTHLY_GRANT_CRON);
    expect(await creditState(api, premium)).toMatchObject({
      balance: 1000,
      entries: [{ kind: 'grant', amount: 1000 }],
    });
    expect((await creditState(api, free)).balance).toBe(0);
    // Turning premium mid-month: this month's grant comes with the next run.
    await setSubscription(api, late);
    await runCron(api, MONTHLY_GRANT_CRON);
    expect((await creditState(api, late)).balance).toBe(1000);
    expect((await creditState(api, premium)).balance).toBe(1000);
  });

  it('logs an admin grant with the admin and the reason, and refuses bad grants', async () => {
    const boss = await admin;
    const rider = await register(api);
    const res = await api.fetch(`/api/admin/users/${rider._id}/ai-credits`, {
      method: 'POST',
      headers: { 'x-auth-token': boss.token },
      json: { amount: 40, reason: 'support: model outage' },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ granted: 40, balance: 40 });
    const entry = await api.db((db) => db.collection('credit_ledger').findOne({ userId: new ObjectId(rider._id) }));
    expect(entry).toMatchObject({ kind: 'grant', amount: 40, reason: 'support: model outage' });
    expect(entry?.adminId.toHexString()).toBe(boss._id);

    const post = (json: unknown, id = rider._id, token = boss.token) =>
      api.fetch(`/api/admin/users/${id}/ai-credits`, { method: 'POST', headers: { 'x-auth-token': token }, json });
    expect((await post({ amount: 0, reason: 'x' })).status).toBe(400);
    expect((await post({ amount: 5 })).status).toBe(400);
    expect((await post({ amount: 5, reason: 'x' }, new ObjectId().toHexString())).status).toBe(404);
    expect((await post({ amount: 5, reason: 'x' }, rider._id, rider.token)).status).toBe(403);
    expect((await creditState(api, rider)).balance).toBe(40);
  });
});

describe('reading it', () => {
  it('pages the ledger newest first with a cursor, without keys or the admin', async () => {
    const rider = await register(api);
    for (const amount of [1, 2, 3]) await grantCredits(api, await admin, rider, amount);
    const first = await api.fetch('/api/users/me/ai-credits/ledger?limit=2', { headers: as(rider) });
    const page = await first.json<{ items: Record<string, unknown>[]; nextCursor: string }>();
    expect(page.items.map((item) => item.amount)).toEqual([3, 2]);
    expect(page.items[0]).not.toHaveProperty('idempotencyKey');
    expect(page.items[0]).not.toHaveProperty('adminId');
    const next = await api.fetch(`/api/users/me/ai-credits/ledger?limit=2&cursor=${page.nextCursor}`, {
      headers: as(rider),
    });
    expect(await next.json()).toMatchObject({ items: [{ amount: 1, kind: 'grant' }], nextCursor: null });
    expect((await api.fetch('/api/users/me/ai-credits/ledger?cursor=nope', { headers: as(rider) })).status).toBe(400);
    expect((await api.fetch('/api/users/me/ai-credits')).status).toBe(401);
  });

  it('shows reserved credit apart from the spendable balance', async () => {
    const rider = await register(api);
    await grantCredits(api, await admin, rider, 50);
    await withStore(api, (store) => reserveCredits(store, new ObjectId(rider._id), 20, 'chat'));
    expect(await myCredits(api, rider)).toMatchObject({ balance: 30, reserved: 20, allowance: { used: 0, limit: 20 } });
  });
});

/** Moves every hold of the rider back in time, as if its request had died that long ago. */
const ageHolds = (rider: TestAccount, ms: number) =>
  api.db(async (db) => {
    const account = await db.collection('credit_accounts').findOne({ userId: new ObjectId(rider._id) });
    const holds = (account!.holds as { at: Date }[]).map((hold) => ({ ...hold, at: new Date(Date.now() - ms) }));
    await db.collection('credit_accounts').updateOne({ _id: account!._id }, { $set: { holds } });
  });

describe('the sweep', () => {
  it('releases reservations of requests that never settled, and leaves fresh ones alone', async () => {
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    await grantCredits(api, await admin, rider, 100);
    await withStore(api, async (store) => {
      await reserveCredits(store, userId, 10, 'chat');
      await reserveCredits(store, userId, 15, 'voice');
    });
    await ageHolds(rider, 10 * MINUTE);
    await withStore(api, (store) => reserveCredits(store, userId, 5, 'chat'));
    await runCron(api, SWEEP_CRON);
    const state = await creditState(api, rider);
    expect(state).toMatchObject({ balance: 95, reserved: 5, holds: 1, ledgerSum: 95 });
    expect(
      state.entries
        .filter((entry) => entry.kind === 'release')
        .map((entry) => entry.amount)
        .sort(),
    ).toEqual([10, 15]);
  });

  it('finishes a hold whose ledger entries a crash left half-written', async () => {
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    await grantCredits(api, await admin, rider, 100);
    // A request that died after its settle entry, before the account update: the sweep applies the settle.
    const settled = await withStore(api, (store) => reserveCredits(store, userId, 10, 'chat'));
    await api.db((db) =>
      db.collection('credit_ledger').insertOne({
        userId,
        kind: 'settle',
        amount: 7,
        charged: 3,
        idempotencyKey: `finish:${(settled as Reservation).id}`,
        reservationId: (settled as Reservation).id,
        createdAt: new Date(),
      }),
    );
    // A request that died between its hold and its reserve entry: the sweep enters both reserve and release.
    await api.db((db) =>
      db.collection('credit_accounts').updateOne({ userId }, {
        $inc: { balance: -20, reserved: 20 },
        $push: { holds: { id: crypto.randomUUID(), amount: 20, operation: 'chat', at: new Date() } },
      } as never),
    );
    await ageHolds(rider, 10 * MINUTE);
    await runCron(api, SWEEP_CRON);
    expect(await creditState(api, rider)).toMatchObject({ balance: 97, reserved: 0, holds: 0, ledgerSum: 97 });
  });
});

/**
 * The store with one interleaving forced: right after the sweep's read of stale holds, `meanwhile` runs, as a
 * request finishing one of them late would between the sweep's read and its write.
 */
function racingStore(store: Store, meanwhile: () => Promise<unknown>): Store {
  let raced = false;
  const accounts = new Proxy(store.credit_accounts, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== 'find') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: Parameters<typeof target.find>) => {
        const cursor = target.find(...args);
        return {
          async toArray() {
            const rows = await cursor.toArray();
            if (!raced) {
              raced = true;
              await meanwhile();
            }
            return rows;
          },
        };
      };
    },
  });
  return new Proxy(store, {
    get: (target, prop) => (prop === 'credit_accounts' ? accounts : Reflect.get(target, prop)),
  });
}

describe('the sweep racing a late request', () => {
  it('goes hold by hold when a request settles one of the stale holds between its read and its write', async () => {
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    await grantCredits(api, await admin, rider, 100);
    const [late] = await withStore(api, async (store) => [
      (await reserveCredits(store, userId, 10, 'chat')) as Reservation,
      await reserveCredits(store, userId, 15, 'voice'),
    ]);
    await ageHolds(rider, 10 * MINUTE);
    const ended = await withStore(api, (store) =>
      sweepStaleReservations(racingStore(store, () => finishReservation(store, late!, { kind: 'settle', charged: 4 }))),
    );
    expect(ended).toBe(2);
    // The late request's settle stands (4 charged), the other hold is released whole: nothing lost, nothing twice.
    const state = await creditState(api, rider);
    expect(state).toMatchObject({ balance: 96, reserved: 0, holds: 0, ledgerSum: 96 });
    expect(state.entries.filter((entry) => entry.kind === 'settle')).toEqual([{ kind: 'settle', amount: 6 }]);
    expect(state.entries.filter((entry) => entry.kind === 'release')).toEqual([{ kind: 'release', amount: 15 }]);
  });
});

describe('the ledger invariant', () => {
  it('keeps the balance equal to the ledger sum after 200 random operations, some in parallel', async () => {
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    // A fixed seed, so a failure replays.
    let seed = 20261123;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const open: Reservation[] = [];
    let done = 0;
    await withStore(api, async (store) => {
      while (done < 200) {
        const batch = 1 + Math.floor(random() * 6);
        const ops: Promise<unknown>[] = [];
        for (let i = 0; i < batch && done < 200; i++, done++) {
          const pick = random();
          const amount = 1 + Math.floor(random() * 30);
          if (pick < 0.35) {
            ops.push(
              reserveCredits(store, userId, amount, 'chat').then((r) => {
                if (!('short' in r)) open.push(r);
              }),
            );
          } else if (pick < 0.55 && open.length) {
            const r = open.splice(Math.floor(random() * open.length), 1)[0]!;
            ops.push(finishReservation(store, r, { kind: 'settle', charged: Math.floor(random() * (r.amount + 1)) }));
          } else if (pick < 0.7 && open.length) {
            ops.push(finishReservation(store, open.shift()!, { kind: 'release' }));
          } else if (pick < 0.85) {
            ops.push(addCredits(store, userId, { kind: 'grant', amount, idempotencyKey: `g:${done}` }));
          } else {
            // A purchase delivered twice: counted once.
            const key = `p:${done}`;
            ops.push(addCredits(store, userId, { kind: 'purchase', amount, idempotencyKey: key }));
            ops.push(addCredits(store, userId, { kind: 'purchase', amount, idempotencyKey: key }));
          }
        }
        await Promise.all(ops);
        const state = await creditState(api, rider);
        expect(state.balance).toBeGreaterThanOrEqual(0);
        expect(state.balance).toBe(state.ledgerSum);
      }
      for (const r of open.splice(0)) await finishReservation(store, r, { kind: 'release' });
    });
    const state = await creditState(api, rider);
    expect(state).toMatchObject({ reserved: 0, holds: 0 });
    expect(state.balance).toBe(state.ledgerSum);
  });
});

describe('core actions', () => {
  it('never touch credits: balance and ledger unchanged', async () => {
    const rider = await register(api);
    await grantCredits(api, await admin, rider, 77);
    const before = await creditState(api, rider);
    const list = await createList(api, rider, { name: 'Street', sport: 'skateboarding' });
    await addTrick(api, rider, list._id, { name: 'Kickflip' });
    await createSpot(api, rider);
    await newPost(api, rider);
    for (const path of ['/api/users/me', '/api/users/me/subscription', '/api/listings', '/api/feed', '/api/spots']) {
      expect((await api.fetch(path, { headers: as(rider) })).status).toBe(200);
    }
    expect(
      (await api.fetch('/api/users/me', { method: 'PATCH', headers: as(rider), json: { name: 'New' } })).status,
    ).toBe(200);
    expect(await creditState(api, rider)).toEqual(before);
    expect(await myCredits(api, rider)).toMatchObject({ balance: 77, reserved: 0, allowance: { used: 0 } });
  });
});

describe('account deletion', () => {
  it('keeps purchases in the ledger under a random id that names nobody, and removes the account', async () => {
    const rider = await register(api);
    await deliver(api, purchase(rider._id, 60));
    await withStore(api, async (store) => {
      const r = await reserveCredits(store, new ObjectId(rider._id), 10, 'chat');
      await finishReservation(store, r as Reservation, { kind: 'settle', charged: 4 });
    });
    // A premium rider's monthly grant: its idempotency key names the rider and must not outlive the account.
    await setSubscription(api, rider);
    await runCron(api, MONTHLY_GRANT_CRON);
    const before = await creditState(api, rider);
    expect(before.entries.map((entry) => entry.kind)).toContain('grant');
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    const kept = await api.db((db) =>
      db
        .collection('credit_ledger')
        .find({ idempotencyKey: { $regex: /^purchase:/ }, amount: 60 })
        .toArray(),
    );
    expect(kept).toHaveLength(1);
    const anonymous = kept[0]!.userId as ObjectId;
    expect(anonymous.toHexString()).not.toBe(rider._id);
    await api.db(async (db) => {
      expect(await db.collection('credit_accounts').countDocuments({ userId: new ObjectId(rider._id) })).toBe(0);
      expect(await db.collection('credit_ledger').countDocuments({ userId: new ObjectId(rider._id) })).toBe(0);
      // The rider's whole ledger moved together: it still sums to what was left.
      const entries = await db.collection('credit_ledger').find({ userId: anonymous }).toArray();
      expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(before.ledgerSum);
      expect(entries.some((entry) => String(entry.idempotencyKey).startsWith('monthly:'))).toBe(true);
      for (const name of ['credit_ledger', 'credit_accounts', 'usage_events']) {
        const docs = await db.collection(name).find({}).toArray();
        expect(JSON.stringify(docs)).not.toContain(rider._id);
      }
    });
  });
});
