import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { grantByAdmin } from '../../../worker/billing/ai-credits/grants';
import { isRefused, payForReply, refundCall, settleCall } from '../../../worker/billing/ai-credits/paid-call';
import { reconcileUsageDay } from '../../../worker/billing/ai-credits/reconciliation';
import { applyIndexes } from '../../../worker/data';
import type { Env } from '../../../worker/platform/env';
import { SCHEDULES } from '../../../worker/schedules';
import { registerAdmin } from '../../support/accounts';
import { runCron, withStore } from '../../support/ai-credits';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Usage metering: one usage_events row per settled call, and the daily reconciliation.
const api = createApi('usage-metering');
const env = { AI_DAILY_REPLIES_FREE: '3', AI_REPLY_MAX_CREDITS: '10' } as Env;
const RECONCILE_CRON = SCHEDULES.find((schedule) => schedule.job === 'usage reconciliation')!.cron;

describe('usage metering', () => {
  it('meters every settled call once and reconciles clean after random paid calls, then finds a planted row', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const riders = [new ObjectId(), new ObjectId(), new ObjectId()];
    // The unique keys do the idempotency: the production indexes first, as a fetch would apply them.
    await api.db(applyIndexes);
    await withStore(api, async (store) => {
      const admin = new ObjectId();
      for (const userId of riders) await grantByAdmin(store, userId, { amount: 60, reason: 'bench', adminId: admin });
      for (let i = 0; i < 25; i++) {
        const userId = riders[Math.floor(random() * riders.length)]!;
        const payment = await payForReply(store, env, { userId, plan: 'free', surface: 'bot' }, true);
        if (isRefused(payment)) continue;
        if (random() < 0.2) {
          await refundCall(store, payment);
          continue;
        }
        const usage = {
          callId: `call-${i}`,
          operation: 'chat' as const,
          model: 'gpt-4o-mini',
          costMicros: 1000,
          credits: 1 + Math.floor(random() * 10),
        };
        await settleCall(store, payment, usage);
        // A retried settle writes nothing more.
        if (random() < 0.3) await settleCall(store, payment, usage);
      }
    });
    await api.db(async (db) => {
      const settles = await db.collection('credit_ledger').find({ kind: 'settle' }).toArray();
      const rows = await db
        .collection('usage_events')
        .find({ reservationId: { $exists: true } })
        .toArray();
      expect(settles.length).toBeGreaterThan(3);
      expect(rows.map((row) => row.reservationId).sort()).toEqual(settles.map((entry) => entry.reservationId).sort());
    });
    const clean = await withStore(api, (store) => reconcileUsageDay(store, new Date()));
    expect(clean.difference).toBe(0);
    expect(clean.ledgerCredits).toBeGreaterThan(0);

    await api.db((db) =>
      db.collection('usage_events').insertOne({
        callId: 'planted',
        userId: riders[0],
        kind: 'chat',
        model: 'gpt-4o-mini',
        costMicros: 1,
        creditsCharged: 3,
        at: new Date(),
      }),
    );
    let planted: Awaited<ReturnType<typeof reconcileUsageDay>> | undefined;
    const lines = await captureLogLines(async () => {
      planted = await withStore(api, (store) => reconcileUsageDay(store, new Date()));
    });
    expect(planted).toMatchObject({ difference: -3, day: clean.day });
    expect(eventLines(lines, 'ai-credits.reconciliation.mismatch')).toEqual([
      expect.objectContaining({
        level: 'error',
        day: clean.day,
        ledgerCredits: clean.ledgerCredits,
        usageCredits: clean.ledgerCredits + 3,
        difference: -3,
      }),
    ]);

    // The cron checks yesterday: an entry even though the day was clean (nothing happened).
    await runCron(api, RECONCILE_CRON);
    const admin = await registerAdmin(api);
    const res = await api.fetch('/api/admin/usage/reconciliation', { headers: { 'x-auth-token': admin.token } });
    const page = await res.json<{ items: { day: string; difference: number }[] }>();
    expect(page.items).toHaveLength(2);
    expect(page.items.find((item) => item.day === clean.day)?.difference).toBe(-3);
    expect(page.items.find((item) => item.day !== clean.day)).toMatchObject({ difference: 0, ledgerCredits: 0 });
    // Many database round trips on a busy machine: more than the default 20 s.
  }, 90_000);
});
