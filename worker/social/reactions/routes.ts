import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import type { ReactionCountsPayload } from '../../../durable-objects/realtime-events';
import type { AppEnv } from '../../platform/app-env';
import { readId } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { blockedEitherWay } from '../blocks/service';
import { refuseUnreachablePost } from '../feed/reader';
import { POST_REFUSALS } from '../feed/refusals';
import { PostParam } from '../feed/schema';
import { findPost } from '../feed/service';
import { hiddenRiders, postAudience } from '../visibility';
import { ReactionBody, ReactionState } from './schema';
import { deleteReaction, putReaction } from './service';

const TAGS = ['feed'];

const noPost = errorResponse('No such post');

/** Tells the feed readers who may see the post its new reaction counts (worker/social/visibility.ts postAudience). */
function publishCounts(c: Context<AppEnv>, postId: string, counts: ReactionCountsPayload) {
  const payload = { postId, counts: { love: counts.love, respect: counts.respect } };
  publishAfterWrite(c, { namespace: '/feed', name: 'post:reactions', payload }, async () => {
    const post = await findPost(c.var.db, new ObjectId(postId));
    if (!post) return { everyoneBut: [] };
    const [blocked, moderated] = await Promise.all([
      blockedEitherWay(c.var.db, post.userId),
      hiddenRiders(c.var.db, c.env),
    ]);
    return postAudience(post, moderated.has(readId(post.userId)?.toHexString() ?? ''), blocked);
  });
}

const put = defineRoute({
  method: 'put',
  path: '/{postId}/reactions',
  tags: TAGS,
  summary: 'React to a post (one reaction per rider: a second one switches its type)',
  middleware: [auth()] as const,
  request: { params: PostParam, ...jsonBody(ReactionBody) },
  responses: { 200: jsonResponse(ReactionState, 'Your reaction and the counts'), 404: noPost },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{postId}/reactions',
  tags: TAGS,
  summary: 'Take back your reaction (idempotent)',
  middleware: [auth()] as const,
  request: { params: PostParam },
  responses: { 200: jsonResponse(ReactionState, 'No reaction of yours, and the counts'), 404: noPost },
});

/** Reactions on feed posts, mounted under /api/feed. */
export const reactionRoutes = createRouter<AppEnv>()
  .openapi(put, async (c) => {
    const { postId } = c.req.valid('param');
    const { type } = c.req.valid('json');
    await refuseUnreachablePost(c, new ObjectId(postId));
    const counts = await putReaction(c.var.db, new ObjectId(postId), new ObjectId(c.var.user._id), type);
    if (counts === 'not-found') throw refusal(POST_REFUSALS, counts);
    publishCounts(c, postId, counts);
    return c.json({ postId, myReaction: type, counts }, 200);
  })
  .openapi(remove, async (c) => {
    const { postId } = c.req.valid('param');
    await refuseUnreachablePost(c, new ObjectId(postId));
    const counts = await deleteReaction(c.var.db, new ObjectId(postId), new ObjectId(c.var.user._id));
    if (counts === 'not-found') throw refusal(POST_REFUSALS, counts);
    publishCounts(c, postId, counts);
    return c.json({ postId, myReaction: null, counts }, 200);
  });
