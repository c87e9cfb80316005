import { plainTextError } from '../http/errors';
import { ACCESS_TEXT } from '../tokens/access-text';
import { type CallerAccount, readAccountForToken } from '../tokens/service';
import type { VerifiedToken } from '../tokens/token';
import type { AccountReaderVariables } from './account-reader';
import type { DatabaseVariables } from './database';
import { refuseWhileSuspended } from './suspended';

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
 * The access check's judgement of the caller's account as read (acceptedCaller): the 400 `Invalid token.` for none,
 * the 403 `Account suspended.` for a request a suspended rider may not make at `now`, else the account. A job that
 * writes in the check's own call judges with this too, at the check's `now` (./write-ahead.ts).
 */
export function admitCaller(
  account: CallerAccount | null,
  request: { method: string; path: string },
  now: Date = new Date(),
): CallerAccount {
  if (!account) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  refuseWhileSuspended(account, request, now);
  return account;
}
