import type { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { readId } from '../../platform/db/stored-values';
import { postExists } from '../feed/service';

// Every query on saved posts: one row per rider and post (a unique index).

/** Saves the post for the rider (idempotent); 'not-found' when the post is gone (the save is then undone). */
export async function savePost(store: Store, postId: ObjectId, userId: ObjectId): Promise<'saved' | 'not-found'> {
  const now = new Date();
  // Two saves at once: the unique index lets one insert, and the other finds it saved.
  await onDuplicateKey(
    () =>
      // A save older code stored with hex-string ids is the rider's one save too.
      store.saved_posts.updateOne(
        { userId: anyIdOf(userId), postId: anyIdOf(postId) },
        { $setOnInsert: { userId, postId, createdAt: now, updatedAt: now } },
        { upsert: true },
      ),
    () => undefined,
  );
  // Checked after the write: a post deleted meanwhile has already had its saves removed.
  if (await postExists(store, postId)) return 'saved';
  await store.saved_posts.deleteMany({ postId: anyIdOf(postId) });
  return 'not-found';
}

/** Unsaves the post (idempotent); 'not-found' when there is no such post. */
export async function unsavePost(store: Store, postId: ObjectId, userId: ObjectId): Promise<'unsaved' | 'not-found'> {
  await store.saved_posts.deleteMany({ userId: anyIdOf(userId), postId: anyIdOf(postId) });
  return (await postExists(store, postId)) ? 'unsaved' : 'not-found';
}

/** Which of these posts the rider saved, as hex post ids. */
export async function savedAmong(store: Store, userId: ObjectId, postIds: ObjectId[]): Promise<Set<string>> {
  // Saves match as stored by any code: ids as ObjectIds or their hex strings.
  const rows = await store.saved_posts
    .find({ userId: anyIdOf(userId), postId: anyIdOf(...postIds) }, { projection: { postId: 1 } })
    .toArray();
  return new Set(rows.flatMap((row) => readId(row.postId)?.toHexString() ?? []));
}

/** A page of the rider's saves, newest saved first (`limit + 1` rows for the pager). */
export function listSaves(store: Store, userId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.saved_posts
    .find({ userId: anyIdOf(userId), ...idPageFilter(page.cursor) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export async function removePostSaves(store: Store, postId: ObjectId): Promise<void> {
  await store.saved_posts.deleteMany({ postId: anyIdOf(postId) });
}
