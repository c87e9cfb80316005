import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { refusal } from '../../platform/http/refusals';
import { optionalCaller } from '../../platform/middleware/optional-token';
import { blockedEitherWay } from '../blocks/service';
import { POST_REFUSALS } from './refusals';
import { reachablePost } from './service';

/**
 * The reader behind an optional x-auth-token (none: the public; a bad one is refused, worker/platform/middleware/optional-token.ts),
 * and the riders on either side of a block with them, whose posts and comments they never see (worker/social/blocks/service.ts).
 */
export async function readerOf(c: Context<AppEnv>): Promise<{ readerId: ObjectId | null; hidden: Set<string> }> {
  const readerId = (await optionalCaller(c))?.userId ?? null;
  return { readerId, hidden: await blockedEitherWay(c.var.db, readerId) };
}

/** Whether a block stands between the reader and the author (none stored: nobody to block). */
export const hiddenFrom = (hidden: Set<string>, authorId: ObjectId | undefined) =>
  authorId !== undefined && hidden.has(authorId.toHexString());

/**
 * Refuses a signed-in caller's write on a post whose author and the caller are on either side of a block: 404, as
 * for a post that does not exist. A block made while the write runs is honoured on read (readerOf, the comment list).
 */
export async function refuseUnreachablePost(c: Context<AppEnv>, postId: ObjectId): Promise<void> {
  if (!(await reachablePost(c.var.db, postId, new ObjectId(c.var.user._id)))) throw refusal(POST_REFUSALS, 'not-found');
}
