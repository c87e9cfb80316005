import { ObjectId } from 'mongodb';
import { riderNameFilter } from '../../accounts/users/name-words';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { areHomies, followCounts, homieCount, isFollowing } from '../follows/service';
import { shownTo } from '../visibility';

/** The rider's public counts as the reader sees them and, for a signed-in reader other than the rider, how the two are connected. */
export async function profileOf(store: Store, riderId: ObjectId, readerId: ObjectId | null) {
  const callerId = readerId && !readerId.equals(riderId) ? readerId : null;
  const [counts, homies, postCount, relationship] = await Promise.all([
    followCounts(store, riderId),
    homieCount(store, riderId),
    // Posts older code stored with the author's id as a hex string count too; held ones only for their author.
    store.feed_posts.countDocuments({ userId: anyIdOf(riderId), ...shownTo(readerId) }),
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
 * first (`limit + 1` rows as stored, for the pager), by the `nameWords` index (riderNameFilter); never the hidden
 * riders (a block either way, suspended or withheld: worker/social/feed/reader.ts), and never by email.
 */
export async function searchRiders(
  store: Store,
  query: { q: string; limit: number; cursor?: ObjectId },
  hiddenRiders: Set<string>,
) {
  const hidden = [...hiddenRiders].map((id) => new ObjectId(id));
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
