import { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { logEvent } from '../../platform/ops/log-line';
import { allowanceDay } from '../paid-ai';
import { usageEvents } from './usage';

// The daily usage reconciliation (usage metering): credits settled in the ledger against
// credits charged in usage_events over one UTC day. Both are written by the same settle at the same
// instant (worker/billing/ai-credits/paid-call.ts), so any difference is a bug.

export interface UsageReconciliationDoc {
  _id: ObjectId;
  /** The UTC day checked, YYYY-MM-DD; one entry per day (a rerun replaces it). */
  day: string;
  ledgerCredits: number;
  usageCredits: number;
  /** ledgerCredits - usageCredits: 0 when clean. */
  difference: number;
  settles: number;
  calls: number;
  checkedAt: Date;
}

// The planned collection's accessor is typed loosely in worker/platform/db/collections.ts.
export const usageReconciliations = (store: Store) =>
  store.db.collection<UsageReconciliationDoc>('usage_reconciliations');

const DAY_MS = 24 * 60 * 60 * 1000;

/** Reconciles the UTC day that contains `day` and stores its entry, clean or not. */
export async function reconcileUsageDay(store: Store, day: Date): Promise<UsageReconciliationDoc> {
  const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
  const to = new Date(from.getTime() + DAY_MS);
  const [ledger] = await store.credit_ledger
    .aggregate<{ credits: number; count: number }>([
      { $match: { kind: 'settle', createdAt: { $gte: from, $lt: to } } },
      { $group: { _id: null, credits: { $sum: '$charged' }, count: { $sum: 1 } } },
    ])
    .toArray();
  const [usage] = await usageEvents(store)
    .aggregate<{ credits: number; count: number }>([
      { $match: { at: { $gte: from, $lt: to } } },
      { $group: { _id: null, credits: { $sum: '$creditsCharged' }, count: { $sum: 1 } } },
    ])
    .toArray();
  const entry = {
    day: allowanceDay(from),
    ledgerCredits: ledger?.credits ?? 0,
    usageCredits: usage?.credits ?? 0,
    difference: (ledger?.credits ?? 0) - (usage?.credits ?? 0),
    settles: ledger?.count ?? 0,
    calls: usage?.count ?? 0,
    checkedAt: new Date(),
  };
  // Any difference is a bug in worker/billing/ai-credits/: every settle writes its usage event.
  if (entry.difference !== 0) {
    const { day, ledgerCredits, usageCredits, difference } = entry;
    logEvent('ai-credits.reconciliation.mismatch', { day, ledgerCredits, usageCredits, difference });
  }
  await usageReconciliations(store).updateOne({ day: entry.day }, { $set: entry }, { upsert: true });
  return (await usageReconciliations(store).findOne({ day: entry.day })) ?? { _id: new ObjectId(), ...entry };
}

/** The cron's run: the previous UTC day. */
export const reconcileYesterday = (store: Store, now = new Date()) =>
  reconcileUsageDay(store, new Date(now.getTime() - DAY_MS));

/** A page of entries, newest day first (limit + 1 rows, for toPage). */
export function reconciliationPage(store: Store, page: { limit: number; cursor?: ObjectId }) {
  return usageReconciliations(store)
    .find(page.cursor ? { _id: { $lt: page.cursor } } : {}, { sort: { _id: -1 }, limit: page.limit + 1 })
    .toArray();
}
