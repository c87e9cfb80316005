import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../app-env';
import { ApiError } from '../http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../http/openapi';
import { PageQuery, toPage } from '../http/pagination';
import { auth } from '../middleware/auth';
import { callerOf, tokenCaller } from '../session/service';
import { spotExists } from '../spots/service';
import { postViews } from './post-views';
import { removePost } from './removal';
import { DeletedPost, FeedPage, FeedPost, NewPost, PostParam } from './schema';
import { findPost, insertPost, listPosts } from './service';

const TAGS = ['feed'];
const noPost = errorResponse('No such post');
// Public reads: with a valid token in x-auth-token each post also carries the caller's reaction and saved state.
const PUBLIC_OR_READER: Record<string, string[]>[] = [{}, { 'x-auth-token': [] }];

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'The feed, newest first',
  description: "With a valid `x-auth-token`, each post carries the caller's `myReaction` and `saved`.",
  security: PUBLIC_OR_READER,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(FeedPage, 'A page of posts') },
});

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Post to the feed: text, media or both, optionally at a spot',
  middleware: [auth()] as const,
  request: jsonBody(NewPost),
  responses: { 201: jsonResponse(FeedPost, 'The new post') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/{postId}',
  tags: TAGS,
  summary: 'One post',
  security: PUBLIC_OR_READER,
  request: { params: PostParam },
  responses: { 200: jsonResponse(FeedPost, 'The post'), 404: noPost },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{postId}',
  tags: TAGS,
  summary: 'Delete a post with its comments, reactions and saves (its author or an admin)',
  middleware: [auth()] as const,
  request: { params: PostParam },
  responses: { 200: jsonResponse(DeletedPost, 'Deleted'), 403: errorResponse('Not your post'), 404: noPost },
});

/** The reader behind an optional x-auth-token; a bad or missing token reads as the public. */
async function readerOf(c: Context<AppEnv>) {
  return (await tokenCaller(c.env, c.var.db, c.req.header('x-auth-token')))?.userId ?? null;
}

/** Feed posts, mounted under /api/feed. */
export const feedRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    const page = toPage(await listPosts(c.var.db, query), query.limit, (post) => post);
    return c.json({ ...page, items: await postViews(c.var.db, page.items, await readerOf(c)) }, 200);
  })
  .openapi(create, async (c) => {
    const { spotId, ...fields } = c.req.valid('json');
    const spot = spotId ? new ObjectId(spotId) : undefined;
    if (spot && !(await spotExists(c.var.db, spot))) {
      throw new ApiError(400, 'Invalid request body.', { details: [{ field: 'spotId', message: 'no such spot' }] });
    }
    const userId = new ObjectId(c.var.user._id);
    const post = await insertPost(c.var.db, userId, { ...fields, ...(spot ? { spotId: spot } : {}) });
    const [view] = await postViews(c.var.db, [post], userId);
    return c.json(view!, 201);
  })
  .openapi(getOne, async (c) => {
    const post = await findPost(c.var.db, new ObjectId(c.req.valid('param').postId));
    if (!post) throw new ApiError(404, 'Post not found.');
    const [view] = await postViews(c.var.db, [post], await readerOf(c));
    return c.json(view!, 200);
  })
  .openapi(remove, async (c) => {
    const { postId } = c.req.valid('param');
    const outcome = await removePost(c.var.db, new ObjectId(postId), await callerOf(c.var.db, c.var.user));
    if (outcome === 'not-found') throw new ApiError(404, 'Post not found.');
    if (outcome === 'not-yours') throw new ApiError(403, 'You can delete only your own posts.');
    return c.json({ deleted: true as const, postId }, 200);
  });
