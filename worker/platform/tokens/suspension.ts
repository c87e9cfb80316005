/** What the access checks read of a suspension (the accounts domain's `users.suspension`, read by its reader). */
export interface AccountSuspension {
  until: Date | null;
  reason: string;
}

/**
 * The account's suspension while it lasts: with no end (until an admin lifts it) or an end still ahead. Past its
 * end it is none, with no write: the stored one stays as a record until lifted or replaced.
 */
export function activeSuspension<S extends AccountSuspension>(
  account: { suspension?: S },
  now: Date = new Date(),
): S | null {
  const suspension = account.suspension;
  if (!suspension) return null;
  return suspension.until === null || suspension.until.getTime() > now.getTime() ? suspension : null;
}
