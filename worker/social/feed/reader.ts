import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { readId } from '../../platform/db/stored-values';
import { refusal } from '../../platform/http/refusals';
import { optionalCaller } from '../../platform/middleware/optional-token';
import { blockedEitherWay } from '../blocks/service';
import { heldFrom, hiddenRidersFor } from '../visibility';
import { POST_REFUSALS } from './refusals';
import { reachablePost } from './service';

/**
 * The reader behind an optional x-auth-token (none: the public; a bad one is refused, worker/platform/middleware/optional-token.ts),
 * and the riders whose posts, comments and profiles they never see: those on either side of a block with them
 * (worker/social/blocks/service.ts) and those suspended or withheld (worker/social/visibility.ts).
 */
export async function readerOf(c: Context<AppEnv>): Promise<{ readerId: ObjectId | null; hidden: Set<string> }> {
  const readerId = (await optionalCaller(c))?.userId ?? null;
  return { readerId, hidden: await hiddenAuthorsFor(c, readerId) };
}

/** The riders hidden from this reader: both sides of their blocks, and every suspended or withheld rider but themselves. */
export async function hiddenAuthorsFor(c: Context<AppEnv>, readerId: ObjectId | null): Promise<Set<string>> {
  const [blocked, moderated] = await Promise.all([
    blockedEitherWay(c.var.db, readerId),
    hiddenRidersFor(c.var.db, c.env, readerId),
  ]);
  return blocked.size ? new Set([...blocked, ...moderated]) : moderated;
}

/** Whether the author is hidden from the reader (none stored: nobody to hide). */
export const hiddenFrom = (hidden: Set<string>, authorId: ObjectId | undefined) =>
  authorId !== undefined && hidden.has(authorId.toHexString());

/**
 * Refuses a signed-in caller's write on a post they may not see (a block either way, the post held, its author
 * suspended): 404, as for a post that does not exist. A block made while the write runs is honoured on read.
 */
export async function refuseUnreachablePost(c: Context<AppEnv>, postId: ObjectId): Promise<void> {
  if (!(await visiblePost(c, postId, new ObjectId(c.var.user._id)))) throw refusal(POST_REFUSALS, 'not-found');
}

/**
 * The post as the reader may see it, or null: none, a block between the reader and its author either way, held
 * from them (worker/social/visibility.ts), or by a rider suspended or withheld (never to that rider themselves).
 */
export async function visiblePost(c: Context<AppEnv>, postId: ObjectId, readerId: ObjectId | null) {
  const [post, moderated] = await Promise.all([
    reachablePost(c.var.db, postId, readerId),
    hiddenRidersFor(c.var.db, c.env, readerId),
  ]);
  if (!post || heldFrom(post, readerId)) return null;
  const authorId = readId(post.userId);
  return authorId && moderated.has(authorId.toHexString()) ? null : post;
}
