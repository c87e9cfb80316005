import type { Filter, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Suspension, UserDoc } from '../documents';
import { readUser } from '../users/read-user';
import { byAccountId } from '../users/service';

// Every query of a rider's suspension: one atomic write each, on the account, so two admins racing leave one
// suspension standing and an admin is never suspended, even one promoted meanwhile.

export type SuspendRefused = 'not-found' | 'admin';

/**
 * Suspends the rider (replacing any suspension they had): the suspension stored, or why not: no such account, or
 * it is an admin's (an admin is never suspended; take the role away first).
 */
export async function suspendRider(
  store: Store,
  userId: ObjectId,
  suspension: Required<Suspension>,
): Promise<Required<Suspension> | SuspendRefused> {
  const filter = { ...byAccountId(userId), role: { $ne: 'admin' } } as Filter<UserDoc>;
  const stored = await store.users.findOneAndUpdate(
    filter,
    { $set: { suspension, updatedAt: suspension.at } },
    { returnDocument: 'after', projection: { _id: 1 } },
  );
  if (stored) return suspension;
  return (await store.users.countDocuments(byAccountId(userId), { limit: 1 })) ? 'admin' : 'not-found';
}

/** Lifts the rider's suspension, ended or not: the one removed, or why not (no such account, or none stored). */
export async function liftSuspension(
  store: Store,
  userId: ObjectId,
): Promise<Suspension | 'not-found' | 'not-suspended'> {
  const before = await store.users.findOneAndUpdate(
    { ...byAccountId(userId), suspension: { $exists: true } } as Filter<UserDoc>,
    { $unset: { suspension: '' }, $set: { updatedAt: new Date() } },
    { returnDocument: 'before' },
  );
  const lifted = before && readUser(before)?.suspension;
  if (lifted) return lifted;
  return (await store.users.countDocuments(byAccountId(userId), { limit: 1 })) ? 'not-suspended' : 'not-found';
}
