import { plainTextError } from '../http/errors';
import { ACCESS_TEXT } from '../tokens/access-text';
import { type CallerAccount, readAccountForToken } from '../tokens/service';
import type { VerifiedToken } from '../tokens/token';
import type { AccountReaderVariables } from './account-reader';
import type { DatabaseVariables } from './database';
import { suspendedRefusal } from './suspended';

/** What the access checks need of the request: its store and the reader of a stored account. */
export type CheckVariables = Pick<DatabaseVariables, 'db'> & AccountReaderVariables;

/**
 * The account behind verified claims, read, or the Live 400 `Invalid token.` when it is gone or no longer accepts
 * the token (its tokens were revoked after this one was signed), so existing clients sign out; or the 403
 * `Account suspended.` when it is suspended and the request is not one a suspended rider may make (./suspended.ts).
 */
export async function acceptedAccount(
  vars: CheckVariables,
  verified: VerifiedToken,
  request: { method: string; path: string },
): Promise<CallerAccount> {
  return admitCaller(await readAccountForToken(vars.db, verified, vars.readAccount), request);
}

/**
 * The access check's refusal of the caller's account as read (acceptedCaller), or null to admit it: the 400
 * `Invalid token.` for none, the 403 `Account suspended.` for a request a suspended rider may not make at `now`.
 * A job that writes in the check's own call judges with this too, at the check's `now` (./write-ahead.ts).
 */
export function callerRefusal(
  account: CallerAccount | null,
  request: { method: string; path: string },
  now: Date = new Date(),
): Error | null {
  if (!account) return plainTextError(400, ACCESS_TEXT.invalidToken);
  return suspendedRefusal(account, request, now);
}

/** The account when the check admits it (callerRefusal), else the refusal thrown. */
export function admitCaller(
  account: CallerAccount | null,
  request: { method: string; path: string },
  now: Date = new Date(),
): CallerAccount {
  const refusal = callerRefusal(account, request, now);
  if (refusal || !account) throw refusal;
  return account;
}
