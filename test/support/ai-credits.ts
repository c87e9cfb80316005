import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { expect } from 'vitest';
import worker from '../../worker/index';
import { createStore, type Store } from '../../worker/platform/db/store';
import { SCHEDULES } from '../../worker/schedules';
import type { TestAccount } from './accounts';
import type { Api } from './worker-api';

export const SWEEP_CRON = SCHEDULES.find((schedule) => schedule.job === 'AI credit reservation sweep')!.cron;
export const MONTHLY_GRANT_CRON = SCHEDULES.find((schedule) => schedule.job === 'premium monthly AI credits')!.cron;

/** Runs a Cron Trigger through the Worker's scheduled handler, as the runtime would. */
export async function runCron(api: Api, cron: string): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron }), api.env, ctx);
  await waitOnExecutionContext(ctx);
}

/** Runs `fn` with a Store over the test's database, for calling the credit service directly. */
export const withStore = <T>(api: Api, fn: (store: Store) => Promise<T>) => api.db((db) => fn(createStore(() => db)));

/** The stored account (zeros when none) and the sum of the rider's ledger. */
export async function creditState(api: Api, who: TestAccount | string) {
  const userId = new ObjectId(typeof who === 'string' ? who : who._id);
  return api.db(async (db) => {
    const account = await db.collection('credit_accounts').findOne({ userId });
    const entries = await db.collection('credit_ledger').find({ userId }).toArray();
    return {
      balance: (account?.balance as number | undefined) ?? 0,
      reserved: (account?.reserved as number | undefined) ?? 0,
      holds: ((account?.holds as unknown[] | undefined) ?? []).length,
      ledgerSum: entries.reduce((sum, entry) => sum + (entry.amount as number), 0),
      entries: entries.map((entry) => ({ kind: entry.kind as string, amount: entry.amount as number })),
    };
  });
}

/** Grants credits through the admin route. */
export async function grantCredits(api: Api, admin: TestAccount, rider: TestAccount, amount: number) {
  const res = await api.fetch(`/api/admin/users/${rider._id}/ai-credits`, {
    method: 'POST',
    headers: { 'x-auth-token': admin.token },
    json: { amount, reason: 'test grant' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

/** GET /api/users/me/ai-credits. */
export async function myCredits(api: Api, rider: TestAccount) {
  const res = await api.fetch('/api/users/me/ai-credits', { headers: { 'x-auth-token': rider.token } });
  expect(res.status).toBe(200);
  return res.json<{
    balance: number;
    reserved: number;
    allowance: { used: number; limit: number; resetsAt: string };
  }>();
}

/** The server analytics events of a name recorded for the rider. */
export const serverEvents = (api: Api, who: TestAccount, name: string) =>
  api.db((db) =>
    db
      .collection('analytics_events')
      .find({ userId: new ObjectId(who._id), name, platform: 'server' })
      .toArray(),
  );
