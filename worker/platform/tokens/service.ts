import { ObjectId } from 'mongodb';
import type { Collections } from '../db/collections';
import type { Store } from '../db/store';
import type { Env } from '../env';
import { nameRiderInScope } from '../ops/request-scope';
import { signingKeys } from './keys';
import { tokenVersionOf, type VerifiedToken, verifyWithKeys } from './token';

/** The account as the accounts domain stores it: its `users` collection, declared there. */
type UserDoc = Collections['users'];

/** The caller's account as stored now, without its password hash: what every access check reads. */
export type CallerAccount = Omit<UserDoc, 'password'>;

/**
 * The account a verified token speaks for, as stored now, or null when the token must be refused: the account
 * is gone, its tokens were revoked after this one was signed (its version is behind the account's), or its opt-in
 * session was revoked on its own (`revokedSessions`, stored on the account so no session is read). The one
 * query the access checks run, by `_id`; routes read the role, subscription and profile from it instead of again.
 */
export async function accountForToken(
  store: Store,
  { claims, sessionId }: VerifiedToken,
): Promise<CallerAccount | null> {
  const user = await store.users.findOne({ _id: new ObjectId(claims._id) }, { projection: { password: 0 } });
  if (!user || (user.tokenVersion ?? 0) !== tokenVersionOf(claims)) return null;
  return sessionId && user.revokedSessions?.some((revoked) => revoked.sid === sessionId) ? null : user;
}

export const isAdminAccount = (account: Pick<UserDoc, 'role'>): boolean => account.role === 'admin';

/** Who is acting on shared content: their id, and whether their stored role is admin now. */
export type Caller = { userId: ObjectId; isAdmin: boolean };

/** The caller of an `auth()` route, from the account the check loaded: the role as stored, never the token's (never-expiring) claim. */
export const callerOf = (account: CallerAccount): Caller => ({ userId: account._id, isAdmin: isAdminAccount(account) });

/**
 * The caller behind an optional `x-auth-token` on a public route, or null for the public view:
 * no token, a bad or expired one, or one the account no longer accepts (gone, or revoked).
 */
export async function tokenCaller(env: Env, store: Store, token: string | undefined): Promise<Caller | null> {
  if (!token) return null;
  const verified = await verifyWithKeys(token, signingKeys(env));
  if (!verified || verified === 'expired') return null;
  const account = await accountForToken(store, verified);
  if (!account) return null;
  // The request's log line names the rider, as it does behind the auth check.
  nameRiderInScope(account._id.toHexString());
  return callerOf(account);
}
