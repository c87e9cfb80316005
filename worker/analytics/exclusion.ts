import type { Filter } from 'mongodb';
import type { UserDoc } from '../db/documents';

// Accounts left out of every metric and counted in `excluded` (the interface spec, ingestion
// rules); their events stay stored, so changing a flag changes the metrics, not the data.

/** The `users` filter matching excluded accounts: role admin, isBot or analyticsExcluded. */
export const EXCLUDED_ACCOUNT_FILTER: Filter<UserDoc> = {
  $or: [{ role: 'admin' }, { isBot: true }, { analyticsExcluded: true }],
};

/** Whether an account is left out of the metrics; the same rule as EXCLUDED_ACCOUNT_FILTER. */
export function isExcludedAccount(user: Pick<UserDoc, 'role' | 'isBot' | 'analyticsExcluded'>): boolean {
  return user.role === 'admin' || user.isBot === true || user.analyticsExcluded === true;
}
