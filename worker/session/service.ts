import { ObjectId } from 'mongodb';
import type { Store } from '../db/store';
import type { TokenClaims } from './token';

/**
 * The account's role as stored now (Live tokens never expire, so the claim may be stale);
 * null when the account is gone. The one query the access checks run.
 */
export async function storedAccount(store: Store, claims: TokenClaims): Promise<{ isAdmin: boolean } | null> {
  const user = await store.users.findOne({ _id: new ObjectId(claims._id) }, { projection: { role: 1 } });
  return user ? { isAdmin: user.role === 'admin' } : null;
}
