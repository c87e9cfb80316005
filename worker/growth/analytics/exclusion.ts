import type { Filter } from 'mongodb';
import type { Collections } from '../../platform/db/collections';

/** The account as the accounts domain stores it (growth comes before accounts, so it names the collection, not the module). */
type UserDoc = Collections['users'];

// Accounts left out of every metric and counted in `excluded` (the interface spec, ingestion
// rules); their events stay stored, so changing a flag changes the metrics, not the data.

type ExclusionField = 'role' | 'isBot' | 'analyticsExcluded';

/** A flag set as older code stored it too: `true`, `"true"` or 1 (worker/platform/db/stored-values.ts readBoolean). */
const SET_FLAG = [true, 'true', 1, '1'] as const;

/** The one list of exclusion rules: an account is excluded when any field holds one of its values. */
export const EXCLUSION_RULES = [
  { field: 'role', holds: ['admin'] },
  { field: 'isBot', holds: SET_FLAG },
  { field: 'analyticsExcluded', holds: SET_FLAG },
] as const satisfies readonly { field: ExclusionField; holds: readonly unknown[] }[];

/** The `users` filter matching excluded accounts. */
export const EXCLUDED_ACCOUNT_FILTER = {
  $or: EXCLUSION_RULES.map(({ field, holds }) => ({ [field]: { $in: holds } })),
} as Filter<UserDoc>;

/**
 * The aggregation expression, true when the user document in `userExpr` (e.g. `'$$user'`, `'$$ROOT'`)
 * is excluded: the pipeline form of EXCLUDED_ACCOUNT_FILTER, for a joined or grouped account.
 */
export function excludedAccountExpr(userExpr: string) {
  return { $or: EXCLUSION_RULES.map(({ field, holds }) => ({ $in: [`${userExpr}.${field}`, holds] })) };
}

/** Whether an account is left out of the metrics. */
export function isExcludedAccount(user: Pick<UserDoc, ExclusionField>): boolean {
  return EXCLUSION_RULES.some(({ field, holds }) => (holds as readonly unknown[]).includes(user[field]));
}
