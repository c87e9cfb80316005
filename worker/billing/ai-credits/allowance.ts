import type { Filter, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { CreditAccountDoc } from '../documents';
import { ensureAccount } from './ledger';

// The plan's daily allowance of companion replies: an entitlement reservation taken with the
// same atomic rule as credit, one conditional update, so parallel requests at its edge never
// take more than the limit.

/**
 * Takes one reply from today's allowance: counts up while under `limit`, or starts the count
 * afresh on a new day, in one update (a pipeline, so the day and the count change together).
 */
export async function takeAllowance(store: Store, userId: ObjectId, limit: number, day: string): Promise<boolean> {
  const take = () =>
    store.credit_accounts.updateOne(
      {
        userId,
        $or: [{ 'allowance.day': { $ne: day } }, { 'allowance.used': { $lt: limit } }],
      } as Filter<CreditAccountDoc>,
      [
        {
          $set: {
            allowance: {
              day,
              used: { $cond: [{ $eq: ['$allowance.day', day] }, { $add: ['$allowance.used', 1] }, 1] },
            },
            updatedAt: new Date(),
          },
        },
      ],
    );
  if ((await take()).matchedCount) return true;
  // Perhaps no account yet (a rider's first AI request), or one a parallel request has just created:
  // make sure it exists and try once more, whoever created it.
  await ensureAccount(store, userId);
  return (await take()).matchedCount > 0;
}

/** Gives back a reply taken today whose generation failed. */
export async function returnAllowance(store: Store, userId: ObjectId, day: string): Promise<void> {
  await store.credit_accounts.updateOne(
    { userId, 'allowance.day': day, 'allowance.used': { $gt: 0 } },
    { $inc: { 'allowance.used': -1 } },
  );
}

/** True once per allowance period: the first request that finds the allowance spent. */
export async function firstExhaustion(store: Store, userId: ObjectId, day: string): Promise<boolean> {
  const { modifiedCount } = await store.credit_accounts.updateOne(
    { userId, allowanceExhaustedDay: { $ne: day } },
    { $set: { allowanceExhaustedDay: day } },
  );
  return modifiedCount > 0;
}

/** Replies used of the day's allowance (0 when the stored count is of another day). */
export const allowanceUsed = (allowance: { day: string; used: number } | undefined, day: string) =>
  allowance?.day === day ? allowance.used : 0;
