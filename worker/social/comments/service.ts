import { ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import { anyIdOf, noIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { readId, sameId } from '../../platform/db/stored-values';
import type { Caller } from '../../platform/tokens/service';
import type { FeedCommentDoc } from '../documents';
import { adjustCounts, findPost } from '../feed/service';
import { shownTo } from '../visibility';

// Every query on feed comments. Each insert and delete moves the post's `counts.comments` by one `$inc`.

/** Stores a comment and counts it on the post; 'not-found' when the post is gone (the comment is then undone). */
export async function insertComment(
  store: Store,
  postId: ObjectId,
  userId: ObjectId,
  text: string,
  hold: { withheld?: FeedCommentDoc['withheld'] } = {},
): Promise<FeedCommentDoc | 'not-found'> {
  const now = new Date();
  const comment: FeedCommentDoc = {
    _id: new ObjectId(),
    postId,
    userId,
    text,
    ...hold,
    createdAt: now,
    updatedAt: now,
  };
  await store.feed_comments.insertOne(comment);
  if (await adjustCounts(store, postId, { comments: 1 })) {
    await recordServerEvent(store, userId, 'comment_created', {
      postId: postId.toHexString(),
      commentId: comment._id.toHexString(),
    });
    return comment;
  }
  await store.feed_comments.deleteMany({ postId: anyIdOf(postId) });
  return 'not-found';
}

/**
 * A page of the post's comments, newest first (`limit + 1` rows for the pager), without those by the hidden authors
 * (hex ids) and those held from the reader (worker/social/visibility.ts).
 */
export function listComments(
  store: Store,
  postId: ObjectId,
  page: { limit: number; cursor?: ObjectId; hiddenAuthors?: Set<string>; readerId: ObjectId | null },
) {
  const hidden = [...(page.hiddenAuthors ?? [])].map((id) => new ObjectId(id));
  return store.feed_comments
    .find({
      // The post and the authors match as stored by any code: an ObjectId or its hex string.
      postId: anyIdOf(postId),
      ...idPageFilter(page.cursor),
      ...(hidden.length ? { userId: noIdOf(...hidden) } : {}),
      ...shownTo(page.readerId),
    })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** Deletes a comment for its author, the post's author or an admin; says why not otherwise. */
export async function deleteComment(
  store: Store,
  postId: ObjectId,
  commentId: ObjectId,
  caller: Caller,
): Promise<'deleted' | 'not-found' | 'not-yours'> {
  const post = await findPost(store, postId);
  if (!post) return 'not-found';
  const anyComment = caller.isAdmin || sameId(post.userId, caller.userId);
  const owned = anyComment ? {} : { userId: anyIdOf(caller.userId) };
  const onPost = { _id: commentId, postId: anyIdOf(postId) };
  if (await store.feed_comments.findOneAndDelete({ ...onPost, ...owned })) {
    await adjustCounts(store, postId, { comments: -1 });
    return 'deleted';
  }
  const exists = await store.feed_comments.countDocuments(onPost, { limit: 1 });
  return exists ? 'not-yours' : 'not-found';
}

/** The post a comment sits on; null when there is no such comment. */
export async function postOfComment(store: Store, commentId: ObjectId): Promise<ObjectId | null> {
  return readId((await store.feed_comments.findOne({ _id: commentId }, { projection: { postId: 1 } }))?.postId) ?? null;
}

export async function removePostComments(store: Store, postId: ObjectId): Promise<void> {
  await store.feed_comments.deleteMany({ postId: anyIdOf(postId) });
}
