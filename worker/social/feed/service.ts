import { ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import { anyIdOf, noIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { readId } from '../../platform/db/stored-values';
import type { Caller } from '../../platform/tokens/service';
import { blockBetweenLookups, blockedBetween } from '../blocks/service';
import type { FeedPostDoc } from '../documents';
import { readPostCounts } from '../stored-feed';
import { shownTo } from '../visibility';
import { type CountDelta, countsMovedBy } from './counts';

// Every query on feed posts. Reactions, comments and saves change a post only through `adjustCounts`.

export type NewPostFields = {
  _id?: ObjectId;
  text?: string;
  media: FeedPostDoc['media'];
  spotId?: ObjectId;
  withheld?: FeedPostDoc['withheld'];
};

export async function insertPost(store: Store, userId: ObjectId, fields: NewPostFields): Promise<FeedPostDoc> {
  const now = new Date();
  const post: FeedPostDoc = {
    _id: fields._id ?? new ObjectId(),
    userId,
    ...(fields.text !== undefined ? { text: fields.text } : {}),
    media: fields.media,
    ...(fields.spotId ? { spotId: fields.spotId } : {}),
    ...(fields.withheld ? { withheld: fields.withheld } : {}),
    counts: { love: 0, respect: 0, comments: 0 },
    createdAt: now,
    updatedAt: now,
  };
  await store.feed_posts.insertOne(post);
  await recordServerEvent(store, userId, 'post_created', {
    postId: post._id.toHexString(),
    hasMedia: post.media.length > 0,
  });
  return post;
}

export const findPost = (store: Store, postId: ObjectId) => store.feed_posts.findOne({ _id: postId });

/**
 * The post as the rider may reach it: null when there is none, or when a block stands between the rider and its
 * author either way, so the post reads as missing to both. One read: the block lookups join the post's author.
 */
export async function reachablePost(store: Store, postId: ObjectId, riderId: ObjectId | null) {
  if (!riderId) return findPost(store, postId);
  const [row] = await store.feed_posts
    .aggregate<FeedPostDoc & { blockedByRider: unknown[]; blockedRider: unknown[] }>([
      { $match: { _id: postId } },
      ...blockBetweenLookups(riderId, 'userId', { byRider: 'blockedByRider', ofRider: 'blockedRider' }),
    ])
    .toArray();
  if (!row || row.blockedByRider.length || row.blockedRider.length) return null;
  const { blockedByRider: _by, blockedRider: _of, ...post } = row;
  // The lookups join ObjectIds only: an author id older code stored as a hex string is checked on its own.
  const storedAuthor = readId(post.userId);
  if (typeof post.userId === 'string' && storedAuthor && (await blockedBetween(store, riderId, [storedAuthor])))
    return null;
  return post as FeedPostDoc;
}

/** A deleted spot is no longer named by the posts that referenced it. */
export async function detachSpotFromPosts(store: Store, spotId: ObjectId): Promise<void> {
  await store.feed_posts.updateMany({ spotId }, { $unset: { spotId: '' }, $set: { updatedAt: new Date() } });
}

export async function postExists(store: Store, postId: ObjectId): Promise<boolean> {
  return (await store.feed_posts.countDocuments({ _id: postId }, { limit: 1 })) > 0;
}

/** These posts (in no order); posts deleted since are absent. */
export const findPosts = (store: Store, postIds: ObjectId[]) =>
  store.feed_posts.find({ _id: { $in: postIds } }).toArray();

/**
 * A page of the feed, newest first (`limit + 1` rows for the pager), without posts by the hidden authors (hex ids)
 * and without posts held from the reader (worker/social/visibility.ts); with `authors`, only theirs (the following feed).
 */
export function listPosts(
  store: Store,
  page: {
    limit: number;
    cursor?: ObjectId;
    hiddenAuthors?: Set<string>;
    authors?: ObjectId[];
    readerId: ObjectId | null;
  },
) {
  const hidden = page.hiddenAuthors ?? new Set<string>();
  const authors = page.authors?.filter((id) => !hidden.has(id.toHexString()));
  // Authors match as stored by any code: an ObjectId or its hex string (one index serves the `$in`).
  return store.feed_posts
    .find({
      ...idPageFilter(page.cursor),
      // Held posts are rare: the same index serves the page, this only skips them (but the reader's own).
      ...shownTo(page.readerId),
      ...(authors
        ? { userId: anyIdOf(...authors) }
        : hidden.size
          ? { userId: noIdOf(...[...hidden].map((id) => new ObjectId(id))) }
          : {}),
    })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/**
 * Applies a reaction's or comment's change to the post's counts in one `$inc`, never a
 * read-modify-write. Returns the counts after it, or null when the post is gone.
 */
export async function adjustCounts(
  store: Store,
  postId: ObjectId,
  delta: CountDelta,
): Promise<FeedPostDoc['counts'] | null> {
  const moved = Object.entries(delta).some(([, by]) => by !== 0);
  const post = moved
    ? await store.feed_posts.findOneAndUpdate({ _id: postId }, countsMovedBy(delta), {
        returnDocument: 'after',
        projection: { counts: 1 },
      })
    : await store.feed_posts.findOne({ _id: postId }, { projection: { counts: 1 } });
  return post ? readPostCounts(post.counts) : null;
}

/** Deletes a post for its author or an admin; says why not otherwise. */
export async function deletePost(
  store: Store,
  postId: ObjectId,
  caller: Caller,
): Promise<'deleted' | 'not-found' | 'not-yours'> {
  const owned = caller.isAdmin ? {} : { userId: anyIdOf(caller.userId) };
  if (await store.feed_posts.findOneAndDelete({ _id: postId, ...owned }, { projection: { _id: 1 } })) return 'deleted';
  return (await postExists(store, postId)) ? 'not-yours' : 'not-found';
}
