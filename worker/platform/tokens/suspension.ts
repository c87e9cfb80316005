import type { CallerAccount } from './service';

/** A suspension as the accounts domain's reader gives it (worker/accounts/documents.ts). */
export type AccountSuspension = NonNullable<CallerAccount['suspension']>;

/**
 * The account's suspension while it lasts: with no end (until an admin lifts it) or an end still ahead. Past its
 * end it is none, with no write: the stored one stays as a record until lifted or replaced.
 */
export function activeSuspension(
  account: Pick<CallerAccount, 'suspension'>,
  now: Date = new Date(),
): AccountSuspension | null {
  const suspension = account.suspension;
  if (!suspension) return null;
  return suspension.until === null || suspension.until.getTime() > now.getTime() ? suspension : null;
}
