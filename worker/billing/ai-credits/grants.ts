import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { readId, readOne } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { grantMonth, paidAiSettings } from '../paid-ai';
import { addCredits } from './ledger';

// Credit arriving other than by purchase: premium's monthly grant (cron) and an admin's grant.

/**
 * Grants this calendar month's credits to every premium rider who has not had them: the key
 * names the rider and the month, so any number of runs grant once, and a rider who turned
 * premium since the last run gets this month's on the next. Returns how many were granted.
 */
export async function grantMonthlyCredits(store: Store, env: Env, now = new Date()): Promise<number> {
  const amount = paidAiSettings(env).premiumMonthlyCredits;
  const month = grantMonth(now);
  const riders = store.users.find(
    { 'subscription.plan': 'premium', 'subscription.status': 'active' },
    { projection: { _id: 1 } },
  );
  let granted = 0;
  for await (const rider of riders) {
    // An account whose _id older code stored as its hex string is the same rider; one naming no id is passed over.
    const riderId = readOne('users', rider, (row) => readId(row._id));
    if (!riderId) continue;
    const outcome = await addCredits(store, riderId, {
      kind: 'grant',
      amount,
      idempotencyKey: `monthly:${riderId.toHexString()}:${month}`,
      reason: `premium monthly credits ${month}`,
    });
    if (outcome === 'applied') granted += 1;
  }
  return granted;
}

/** An admin's grant, logged on the entry with the admin and the reason. */
export function grantByAdmin(
  store: Store,
  userId: ObjectId,
  grant: { amount: number; reason: string; adminId: ObjectId },
) {
  return addCredits(store, userId, {
    kind: 'grant',
    amount: grant.amount,
    idempotencyKey: `admin:${crypto.randomUUID()}`,
    reason: grant.reason,
    adminId: grant.adminId,
  });
}
