import type { ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import { incrementCounters } from '../../platform/db/counter-update';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { idForms, readCount, readId, readIds } from '../../platform/db/stored-values';

// Every query on follows and homies. A rider's followerCount and followingCount move only with the write that
// stored or removed the follow they count, so concurrent follows and unfollows leave them equal to the rows.

export type FollowCounts = { followerCount: number; followingCount: number };
export type FollowState = { following: boolean; homie: boolean } & FollowCounts;
/** What a follow or unfollow did: whether it stored or removed the row, and the state after it. */
export type FollowOutcome = { changed: boolean; state: FollowState };

const pairKeyOf = (a: ObjectId, b: ObjectId) => [a.toHexString(), b.toHexString()].sort().join(':');

/** The follow of `followedId` by `followerId`, in either id form older code stored them in. */
const followOf = (followerId: ObjectId, followedId: ObjectId) => ({
  followerId: anyIdOf(followerId),
  followedId: anyIdOf(followedId),
});

export async function isFollowing(store: Store, followerId: ObjectId, followedId: ObjectId): Promise<boolean> {
  return (await store.follows.countDocuments(followOf(followerId, followedId), { limit: 1 })) > 0;
}

/** A rider's stored counters (absent on accounts that never followed or were followed: 0). */
export async function followCounts(store: Store, userId: ObjectId): Promise<FollowCounts> {
  const user = await store.users.findOne({ _id: userId }, { projection: { followerCount: 1, followingCount: 1 } });
  return { followerCount: readCount(user?.followerCount) ?? 0, followingCount: readCount(user?.followingCount) ?? 0 };
}

/** Pipelines rather than `$inc`, which fails on a counter stored as a string ("12"). */
async function moveCounters(store: Store, followerId: ObjectId, followedId: ObjectId, by: 1 | -1): Promise<void> {
  await Promise.all([
    store.users.updateOne({ _id: followerId }, incrementCounters({ followingCount: by })),
    store.users.updateOne({ _id: followedId }, incrementCounters({ followerCount: by })),
  ]);
}

/**
 * Stores the follow (idempotent: a repeat stores nothing and moves no counter). The write that stored it moves
 * the counters, records `rider_followed`, and forms the homie pair when the other rider already follows back.
 */
export async function follow(store: Store, followerId: ObjectId, followedId: ObjectId): Promise<FollowOutcome> {
  const now = new Date();
  // Two identical follows at once: the unique index lets one insert, and the other finds it stored.
  const created = await onDuplicateKey(
    async () =>
      (
        await store.follows.updateOne(
          followOf(followerId, followedId),
          { $setOnInsert: { followerId, followedId, createdAt: now, updatedAt: now } },
          { upsert: true },
        )
      ).upsertedCount === 1,
    () => false,
  );
  if (created) {
    await moveCounters(store, followerId, followedId, 1);
    await recordServerEvent(store, followerId, 'rider_followed', { riderId: followedId.toHexString() });
    if (await isFollowing(store, followedId, followerId)) await connectHomies(store, followerId, followedId);
  }
  return { changed: created, state: await stateOf(store, followerId, followedId) };
}

/** Removes the follow (idempotent); the write that removed it moves the counters back and ends the homie pair. */
export async function unfollow(store: Store, followerId: ObjectId, followedId: ObjectId): Promise<FollowOutcome> {
  const removed = await store.follows.findOneAndDelete(followOf(followerId, followedId));
  if (removed) {
    await moveCounters(store, followerId, followedId, -1);
    await store.homies.deleteOne({ pairKey: pairKeyOf(followerId, followedId) });
  }
  return { changed: removed !== null, state: await stateOf(store, followerId, followedId) };
}

/**
 * Forms the pair once (a unique key), then checks that both follows still stand: an unfollow that landed between
 * the check and the pair's insert removes it again here, so a pair never outlives one of its follows. Each rider
 * gets `homie_connected` only when the pair really formed.
 */
async function connectHomies(store: Store, a: ObjectId, b: ObjectId): Promise<void> {
  const pairKey = pairKeyOf(a, b);
  const now = new Date();
  const riderIds = [a, b].sort((x, y) => x.toHexString().localeCompare(y.toHexString()));
  const formed = await onDuplicateKey(
    async () =>
      (
        await store.homies.updateOne(
          { pairKey },
          { $setOnInsert: { pairKey, riderIds, createdAt: now, updatedAt: now } },
          { upsert: true },
        )
      ).upsertedCount === 1,
    () => false,
  );
  if (!formed) return;
  const standing = await store.follows.countDocuments({ $or: [followOf(a, b), followOf(b, a)] });
  if (standing < 2) {
    await store.homies.deleteOne({ pairKey });
    return;
  }
  await recordServerEvent(store, a, 'homie_connected', { riderId: b.toHexString() });
  await recordServerEvent(store, b, 'homie_connected', { riderId: a.toHexString() });
}

export async function areHomies(store: Store, a: ObjectId, b: ObjectId): Promise<boolean> {
  return (await store.homies.countDocuments({ pairKey: pairKeyOf(a, b) }, { limit: 1 })) > 0;
}

async function stateOf(store: Store, followerId: ObjectId, followedId: ObjectId): Promise<FollowState> {
  const [following, homie, counts] = await Promise.all([
    isFollowing(store, followerId, followedId),
    areHomies(store, followerId, followedId),
    followCounts(store, followedId),
  ]);
  return { following, homie, ...counts };
}

/** Removes every follow between the two riders, both ways, through `unfollow` so counters and the pair follow. */
export async function unfollowBothWays(store: Store, a: ObjectId, b: ObjectId): Promise<void> {
  await unfollow(store, a, b);
  await unfollow(store, b, a);
}

type Page = { limit: number; cursor?: ObjectId };
const before = (page: Page) => idPageFilter(page.cursor);
/** Leaves out the riders the reader must not see (a block either way) in the query, so every page stays full. */
const without = (field: 'followerId' | 'followedId', hidden: ObjectId[]) =>
  hidden.length ? { [field]: { $nin: hidden.flatMap(idForms) } } : {};

/** A page of the rider's followers but `hidden`, newest follow first (`limit + 1` rows for the pager). */
export const listFollowers = (store: Store, userId: ObjectId, page: Page, hidden: ObjectId[] = []) =>
  store.follows
    .find({ followedId: anyIdOf(userId), ...before(page), ...without('followerId', hidden) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();

/** A page of the riders the rider follows but `hidden`, newest follow first. */
export const listFollowing = (store: Store, userId: ObjectId, page: Page, hidden: ObjectId[] = []) =>
  store.follows
    .find({ followerId: anyIdOf(userId), ...before(page), ...without('followedId', hidden) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();

/** A page of the rider's homies, newest pair first. */
export const listHomies = (store: Store, userId: ObjectId, page: Page) =>
  store.homies
    .find({ riderIds: anyIdOf(userId), ...before(page) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();

export const homieCount = (store: Store, userId: ObjectId) =>
  store.homies.countDocuments({ riderIds: anyIdOf(userId) });

/** Hex ids among `ids` the caller follows: the `following` flag on a listed rider. */
export async function followedAmong(store: Store, callerId: ObjectId, ids: ObjectId[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await store.follows
    .find({ followerId: anyIdOf(callerId), followedId: anyIdOf(...ids) }, { projection: { _id: 0, followedId: 1 } })
    .toArray();
  return new Set(rows.flatMap((row) => readId(row.followedId)?.toHexString() ?? []));
}

/** Everyone the rider follows: the following feed's authors, assembled on read. */
export async function followedIdsOf(store: Store, userId: ObjectId): Promise<ObjectId[]> {
  const rows = await store.follows
    .find({ followerId: anyIdOf(userId) }, { projection: { _id: 0, followedId: 1 } })
    .toArray();
  return rows.flatMap((row) => readId(row.followedId) ?? []);
}

/** The other rider of a homie pair (its ids read as stored); none when the pair names no one else. */
export const otherOf = (riderIds: unknown, userId: ObjectId): ObjectId | undefined =>
  readIds(riderIds).find((id) => !id.equals(userId));
