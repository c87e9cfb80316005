import { type Filter, ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import {
  type CarriedDocuments,
  carryDocuments,
  documentsOf,
  gatewayQuery,
  runQueries,
} from '../../platform/db/gateway-queries';
import type { Store } from '../../platform/db/store';
import { idForms, readEach } from '../../platform/db/stored-values';
import type { DeadReason, PushTokenDoc } from '../documents';
import { ALIVE, readPushToken } from './read-push-token';

/** What a device registers: the stored token's own fields, without its owner and state. */
export type TokenRegistration = Pick<
  PushTokenDoc,
  'token' | 'platform' | 'transport' | 'endpoint' | 'keys' | 'appVersion' | 'deviceModel' | 'timezone' | 'locale'
>;

/** Tokens of this user, whichever form older code stored the owner's id in. */
const ownedBy = (userId: ObjectId) => ({ userId: { $in: idForms(userId) } }) as Filter<PushTokenDoc>;

/** Tokens never reported gone, `deadAt` as older code may have left it (readPushToken). */
const alive = { deadAt: { $in: ALIVE } } as Filter<PushTokenDoc>;

/**
 * Upserts the token in one atomic update: a new token is inserted, a known one moves to this user
 * (a device signed into another account is re-owned) and comes back to life if it was dead, since the
 * push service handed it out again.
 */
export async function registerToken(
  store: Store,
  userId: ObjectId,
  registration: TokenRegistration,
): Promise<PushTokenDoc | undefined> {
  const now = new Date();
  const { token, ...fields } = registration;
  const upsert = () =>
    store.pushTokens.findOneAndUpdate(
      { token },
      {
        $set: { ...fields, userId, lastSeenAt: now, updatedAt: now, deadAt: null, deadReason: null },
        $setOnInsert: { _id: new ObjectId(), createdAt: now },
      },
      { upsert: true, returnDocument: 'after' },
    );
  // Two first registrations of one token raced to insert: the loser updates the winner's (unique token).
  const stored = await onDuplicateKey(upsert, upsert);
  // A token older code stored keeps its own _id and creation time, read as they were stored.
  return stored ? readPushToken(stored) : undefined;
}

/** Removes one of the user's tokens; another user's token is as unknown as a missing one. */
export async function removeToken(store: Store, userId: ObjectId, token: string): Promise<'removed' | 'not-found'> {
  const { deletedCount } = await store.pushTokens.deleteOne({ ...ownedBy(userId), token });
  return deletedCount ? 'removed' : 'not-found';
}

/** Removes the user's web push subscription to `endpoint` (the browser unsubscribed). */
export async function removeWebSubscription(
  store: Store,
  userId: ObjectId,
  endpoint: string,
): Promise<'removed' | 'not-found'> {
  const { deletedCount } = await store.pushTokens.deleteOne({ ...ownedBy(userId), platform: 'web', endpoint });
  return deletedCount ? 'removed' : 'not-found';
}

/**
 * The live tokens' rows as stored, as a gateway query (worker/platform/db/gateway-queries.ts): every push decision
 * reads them (a message's among them), so the owners cross as hex ids and the filter is built where the connection is.
 */
export const liveTokenRows = gatewayQuery(
  'live-push-tokens',
  true,
  async (store, userIds: string[]) => {
    const owners = userIds.flatMap((id) => idForms(ObjectId.createFromHexString(id)));
    return carryDocuments(
      await store.pushTokens.find({ userId: { $in: owners }, ...alive } as Filter<PushTokenDoc>).toArray(),
    );
  },
  (wire: CarriedDocuments) => documentsOf<PushTokenDoc[]>(wire),
);

/** Live tokens (never marked dead) of all these users, in one query, read; one that cannot be read is left out. */
export async function liveTokensOf(store: Store, userIds: ObjectId[]): Promise<PushTokenDoc[]> {
  const [rows] = await runQueries(store, [liveTokenRows.with(userIds.map((id) => id.toHexString()))]);
  return readLiveTokens(rows);
}

/** liveTokenRows' rows read, one that cannot be read left out: for a job that read them beside its own work. */
export const readLiveTokens = (rows: PushTokenDoc[]): PushTokenDoc[] => readEach('pushTokens', rows, readPushToken);

/**
 * Marks tokens dead, once: the first report sets deadAt (the TTL index purges the token 30 days later);
 * later reports keep the first time and reason.
 */
export async function markTokensDead(store: Store, tokens: string[], reason: DeadReason, at: Date): Promise<number> {
  if (!tokens.length) return 0;
  const { modifiedCount } = await store.pushTokens.updateMany(
    { token: { $in: tokens }, ...alive },
    { $set: { deadAt: at, deadReason: reason, updatedAt: at } },
  );
  return modifiedCount;
}

/** A web push send answered 410 Gone (the interface spec's transition): the subscription is dead. */
export function markWebSubscriptionGone(store: Store, endpoint: string, at: Date): Promise<number> {
  return markTokensDead(store, [endpoint], '410-Gone', at);
}
