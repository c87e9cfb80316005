import type { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { readId, readOneOf } from '../../platform/db/stored-values';
import type { ReactionDoc } from '../documents';
import type { CountDelta } from '../feed/counts';
import { adjustCounts } from '../feed/service';

// Every query on reactions. A post's counts move by the delta each write's before-image implies.

type ReactionType = ReactionDoc['type'];
const REACTION_TYPES: readonly ReactionType[] = ['love', 'respect'];

/** A stored reaction's type; one older code named otherwise counts as none. */
const reactionTypeOf = (row: { type?: unknown } | null) => readOneOf(row?.type, REACTION_TYPES) ?? null;

/** What replacing `before` with `after` does to the post's counts. */
export function countDelta(before: ReactionType | null, after: ReactionType | null): CountDelta {
  const delta: CountDelta = {};
  if (before === after) return delta;
  if (before) delta[before] = -1;
  if (after) delta[after] = 1;
  return delta;
}

/**
 * Sets the rider's reaction to the post (one per rider and post: a unique index), then moves
 * the post's counts by what the previous reaction, read atomically with the write, implies.
 * Returns the counts after, or 'not-found' when the post is gone (the reaction is then undone).
 */
export async function putReaction(store: Store, postId: ObjectId, userId: ObjectId, type: ReactionType) {
  const now = new Date();
  const write = () =>
    // A reaction older code stored with hex-string ids is the rider's one reaction too: replaced, never doubled.
    store.reactions.findOneAndUpdate(
      { postId: anyIdOf(postId), userId: anyIdOf(userId) },
      { $set: { type, updatedAt: now }, $setOnInsert: { postId, userId, createdAt: now } },
      { upsert: true, returnDocument: 'before' },
    );
  // Two first reactions at once: the unique index lets one insert; the other is now an update.
  const before = await onDuplicateKey(write, write);
  const counts = await adjustCounts(store, postId, countDelta(reactionTypeOf(before), type));
  if (counts) return counts;
  await store.reactions.deleteMany({ postId: anyIdOf(postId) });
  return 'not-found' as const;
}

/** Removes the rider's reaction, if any, and takes it off the post's counts. */
export async function deleteReaction(store: Store, postId: ObjectId, userId: ObjectId) {
  const before = await store.reactions.findOneAndDelete({ postId: anyIdOf(postId), userId: anyIdOf(userId) });
  return (await adjustCounts(store, postId, countDelta(reactionTypeOf(before), null))) ?? ('not-found' as const);
}

/** The rider's reactions among these posts, keyed by hex post id. */
export async function reactionsBy(store: Store, userId: ObjectId, postIds: ObjectId[]) {
  // Reactions match as stored by any code: ids as ObjectIds or their hex strings.
  const rows = await store.reactions
    .find({ userId: anyIdOf(userId), postId: anyIdOf(...postIds) }, { projection: { postId: 1, type: 1 } })
    .toArray();
  return new Map(
    rows.flatMap((row) => {
      const postId = readId(row.postId);
      const type = reactionTypeOf(row);
      return postId && type ? [[postId.toHexString(), type] as const] : [];
    }),
  );
}

export async function removePostReactions(store: Store, postId: ObjectId): Promise<void> {
  await store.reactions.deleteMany({ postId: anyIdOf(postId) });
}
