import { ObjectId } from 'mongodb';
import { ACCESS_TEXT } from '../auth/access-text';
import { type TokenClaims, verifySessionToken } from '../auth/token';
import { requireSetting } from '../config';
import type { Store } from '../db/store';
import type { Env } from '../env';
import { plainTextError } from '../http/errors';

/** The claims of a session token, or the Live 400 `Invalid token.` that every check answers. */
export async function claimsOrInvalid(env: Env, token: string): Promise<TokenClaims> {
  const claims = await verifySessionToken(token, requireSetting(env, 'JWT_SECRET'));
  if (!claims) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  return claims;
}

/** The account's role as stored now (tokens never expire, so the claim may be stale); null when the account is gone. */
export async function storedAccount(store: Store, claims: TokenClaims): Promise<{ isAdmin: boolean } | null> {
  const user = await store.users.findOne({ _id: new ObjectId(claims._id) }, { projection: { role: 1 } });
  return user ? { isAdmin: user.role === 'admin' } : null;
}
