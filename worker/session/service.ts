import { ObjectId } from 'mongodb';
import { requireSetting } from '../config';
import type { Store } from '../db/store';
import type { Env } from '../env';
import { type TokenClaims, verifySessionToken } from './token';

/**
 * The account's role as stored now (Live tokens never expire, so the claim may be stale);
 * null when the account is gone. The one query the access checks run.
 */
export async function storedAccount(store: Store, claims: TokenClaims): Promise<{ isAdmin: boolean } | null> {
  const user = await store.users.findOne({ _id: new ObjectId(claims._id) }, { projection: { role: 1 } });
  return user ? { isAdmin: user.role === 'admin' } : null;
}

/**
 * Whether an optional `x-auth-token` on a public route belongs to an account stored as admin
 * now. Any other caller, a bad token included, is the public: such routes refuse no token.
 */
export async function tokenIsAdmin(env: Env, store: Store, token: string | undefined): Promise<boolean> {
  return (await tokenCaller(env, store, token))?.isAdmin ?? false;
}

/** Who is acting on shared content: their id, and whether their stored role is admin now. */
export type Caller = { userId: ObjectId; isAdmin: boolean };

/** The caller of an `auth()` route; the role comes from the store, never the token's (never-expiring) claim. */
export async function callerOf(store: Store, claims: TokenClaims): Promise<Caller> {
  return { userId: new ObjectId(claims._id), isAdmin: (await storedAccount(store, claims))?.isAdmin === true };
}

/**
 * The caller behind an optional `x-auth-token` on a public route, or null for the public view:
 * no token, a bad one, or one whose account is gone.
 */
export async function tokenCaller(env: Env, store: Store, token: string | undefined): Promise<Caller | null> {
  if (!token) return null;
  const claims = await verifySessionToken(token, requireSetting(env, 'JWT_SECRET'));
  const account = claims ? await storedAccount(store, claims) : null;
  return claims && account ? { userId: new ObjectId(claims._id), isAdmin: account.isAdmin } : null;
}
