import type { ObjectId } from 'mongodb';
import { accountExists } from '../../accounts/users/service';
import type { Store } from '../../platform/db/store';
import { blockedBetween } from '../blocks/service';

/**
 * Whether the caller may follow, list or see the other rider: the account exists and, for a signed-in caller, no
 * block stands between them in either direction (otherwise the rider reads as not found).
 */
export async function reachable(store: Store, callerId: ObjectId | null, otherId: ObjectId): Promise<boolean> {
  if (!(await accountExists(store, otherId))) return false;
  return !callerId || !(await blockedBetween(store, callerId, [otherId]));
}
