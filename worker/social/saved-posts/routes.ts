import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { readEach, readId } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { postViews } from '../feed/post-views';
import { hiddenAuthorsFor, hiddenFrom, refuseUnreachablePost } from '../feed/reader';
import { POST_REFUSALS } from '../feed/refusals';
import { FeedPage, PostParam } from '../feed/schema';
import { findPosts } from '../feed/service';
import { readFeedPost } from '../stored-feed';
import { heldFrom } from '../visibility';
import { SaveState } from './schema';
import { listSaves, savePost, unsavePost } from './service';

const TAGS = ['feed'];
const noPost = errorResponse('No such post');

const save = defineRoute({
  method: 'put',
  path: '/{postId}/save',
  tags: TAGS,
  summary: 'Save a post (idempotent)',
  middleware: [auth()] as const,
  request: { params: PostParam },
  responses: { 200: jsonResponse(SaveState, 'Saved'), 404: noPost },
});

const unsave = defineRoute({
  method: 'delete',
  path: '/{postId}/save',
  tags: TAGS,
  summary: 'Unsave a post (idempotent)',
  middleware: [auth()] as const,
  request: { params: PostParam },
  responses: { 200: jsonResponse(SaveState, 'Not saved'), 404: noPost },
});

const mine = defineRoute({
  method: 'get',
  path: '/me/saved-posts',
  tags: TAGS,
  summary: 'Your saved posts, newest saved first (posts deleted since are gone)',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(FeedPage, 'A page of saved posts') },
});

/** Saving feed posts, mounted under /api/feed. */
export const savedPostRoutes = createRouter<AppEnv>()
  .openapi(save, async (c) => {
    const { postId } = c.req.valid('param');
    await refuseUnreachablePost(c, new ObjectId(postId));
    const outcome = await savePost(c.var.db, new ObjectId(postId), new ObjectId(c.var.user._id));
    if (outcome === 'not-found') throw refusal(POST_REFUSALS, outcome);
    return c.json({ postId, saved: true }, 200);
  })
  .openapi(unsave, async (c) => {
    const { postId } = c.req.valid('param');
    await refuseUnreachablePost(c, new ObjectId(postId));
    const outcome = await unsavePost(c.var.db, new ObjectId(postId), new ObjectId(c.var.user._id));
    if (outcome === 'not-found') throw refusal(POST_REFUSALS, outcome);
    return c.json({ postId, saved: false }, 200);
  });

/** The caller's saved posts, mounted under /api/users. */
export const mySavedPostRoutes = createRouter<AppEnv>().openapi(mine, async (c) => {
  const userId = new ObjectId(c.var.user._id);
  const query = c.req.valid('query');
  // The cursor moves on the saves as fetched, also past one naming no usable post (left out as unreadable).
  const page = toPage(await listSaves(c.var.db, userId, query), query.limit, (save) => save);
  const postIds = readEach('saved_posts', page.items, (save) => readId(save.postId));
  const [found, hidden] = await Promise.all([findPosts(c.var.db, postIds), hiddenAuthorsFor(c, userId)]);
  const shown = found.filter((post) => !heldFrom(post, userId));
  const posts = new Map(readEach('feed_posts', shown, readFeedPost).map((post) => [post._id.toHexString(), post]));
  // Posts deleted since are gone; those held from the caller, and those of riders on either side of a block with
  // the caller or suspended, are hidden, as in the feed.
  const kept = postIds
    .flatMap((postId) => posts.get(postId.toHexString()) ?? [])
    .filter((post) => !hiddenFrom(hidden, post.userId));
  return c.json({ items: await postViews(c.var.db, kept, userId), nextCursor: page.nextCursor }, 200);
});
