import { ObjectId } from 'mongodb';
import { riderNameFilter } from '../../accounts/users/name-words';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { blockedEitherWay } from '../blocks/service';
import { areHomies, followCounts, homieCount, isFollowing } from '../follows/service';

/** The rider's public counts and, for a signed-in caller, how the two are connected. */
export async function profileOf(store: Store, riderId: ObjectId, callerId: ObjectId | null) {
  const [counts, homies, postCount, relationship] = await Promise.all([
    followCounts(store, riderId),
    homieCount(store, riderId),
    // Posts older code stored with the author's id as a hex string count too.
    store.feed_posts.countDocuments({ userId: anyIdOf(riderId) }),
    callerId ? relationshipOf(store, callerId, riderId) : undefined,
  ]);
  return { ...counts, homieCount: homies, postCount, ...(relationship ? { relationship } : {}) };
}

async function relationshipOf(store: Store, callerId: ObjectId, riderId: ObjectId) {
  const [following, followedBy, homie] = await Promise.all([
    isFollowing(store, callerId, riderId),
    isFollowing(store, riderId, callerId),
    areHomies(store, callerId, riderId),
  ]);
  return { following, followedBy, homie };
}

/**
 * Riders with a word of their name starting with each word of `q` (any case, accents ignored), newest account
 * first (`limit + 1` rows as stored, for the pager), by the `nameWords` index (riderNameFilter); never the riders
 * the caller blocked or who blocked the caller, and never by email.
 */
export async function searchRiders(
  store: Store,
  callerId: ObjectId,
  query: { q: string; limit: number; cursor?: ObjectId },
) {
  const hidden = [...(await blockedEitherWay(store, callerId))].map((id) => new ObjectId(id));
  const ids = { ...(query.cursor ? { $lt: query.cursor } : {}), ...(hidden.length ? { $nin: hidden } : {}) };
  return store.users
    .find(
      {
        ...riderNameFilter(query.q),
        ...(Object.keys(ids).length ? { _id: ids } : {}),
      },
      { projection: { name: 1, imageUri: 1 } },
    )
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .toArray();
}
