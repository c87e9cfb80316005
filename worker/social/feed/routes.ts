import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { isWithheld } from '../../moderation/documents';
import { screenText } from '../../moderation/model/screen';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { readEach, readOne } from '../../platform/db/stored-values';
import { plainTextError } from '../../platform/http/errors';
import {
  createRouter,
  defineRoute,
  errorResponse,
  jsonBody,
  jsonResponse,
  textResponse,
} from '../../platform/http/openapi';
import { toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { OPTIONAL_TOKEN_REFUSALS, optionalCaller, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { SUSPENDED_RESPONSE } from '../../platform/middleware/suspended';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { ACCESS_TEXT } from '../../platform/tokens/access-text';
import { orExpired } from '../../platform/tokens/claims';
import { callerOf } from '../../platform/tokens/service';
import { spotExists } from '../../riding/spots/service';
import { blockedEitherWay } from '../blocks/service';
import type { FeedPostDoc } from '../documents';
import { followedIdsOf } from '../follows/service';
import { attachRefusals } from '../media/refusals';
import { claimForPost, releaseFromPost } from '../media/service';
import { mediaUrl } from '../media/views';
import { afterScreening, flaggedCategories, holdAtWrite } from '../review/screening';
import { readFeedPost } from '../stored-feed';
import { hiddenRiders, postAudience } from '../visibility';
import { postViews } from './post-views';
import { readerOf, visiblePost } from './reader';
import { POST_REFUSALS } from './refusals';
import { removePost } from './removal';
import { DeletedPost, FeedPage, FeedPost, FeedQuery, NewPost, PostParam } from './schema';
import { insertPost, listPosts } from './service';
import { postView } from './views';

const TAGS = ['feed'];
const noPost = errorResponse('No such post');

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'The feed, newest first',
  description:
    "With a valid `x-auth-token`, each post carries the caller's `myReaction` and `saved`, and posts by riders on either side of a block with the caller are left out; a token that does not verify, or whose account is gone or revoked it, is 400 `Invalid token.`, an opt-in one past its exp 401 `Token expired.`. `scope=following` (needs the token) keeps only posts by riders the caller follows and the caller's own (docs/connections.md).",
  security: PUBLIC_OR_TOKEN,
  request: { query: FeedQuery },
  responses: {
    200: jsonResponse(FeedPage, 'A page of posts'),
    // A bad token, and the following feed's own access check (followingAuthors): the texts the auth check answers.
    400: textResponse([ACCESS_TEXT.invalidToken]),
    401: orExpired(textResponse([ACCESS_TEXT.noToken])),
    403: SUSPENDED_RESPONSE,
  },
});

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Post to the feed: text, media or both, optionally at a spot',
  middleware: [auth()] as const,
  request: jsonBody(NewPost),
  description:
    "`media` items are links (`{type, url}`) or your own uploads (`{mediaId}`, docs/media.md): an upload is attached to this post alone and served publicly from then on; another rider's upload is a 404, one already attached a 409. With a moderation model configured, a post it flags (its text, or a photo on it) is stored held for review: answered with `held: true` and shown to you alone until an admin decides (docs/moderation.md).",
  responses: {
    201: jsonResponse(FeedPost, 'The new post'),
    404: errorResponse('A mediaId names no upload of yours'),
    409: errorResponse('An upload is already attached to a post or a profile'),
    ...OBJECTIONABLE_TEXT,
  },
});

const getOne = defineRoute({
  method: 'get',
  path: '/{postId}',
  tags: TAGS,
  summary:
    'One post (404 when a block stands between the reader and its author, either way, or when it is hidden from the reader)',
  security: PUBLIC_OR_TOKEN,
  request: { params: PostParam },
  responses: { 200: jsonResponse(FeedPost, 'The post'), ...OPTIONAL_TOKEN_REFUSALS, 404: noPost },
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

/**
 * The authors of the reader's following feed (their own posts and the riders they follow), which is theirs alone: without a token, or with one that does not verify, the
 * answers the auth check gives (401, 400).
 */
async function followingAuthors(c: Context<AppEnv>, readerId: ObjectId | null): Promise<ObjectId[]> {
  if (!c.req.header('x-auth-token')) throw plainTextError(401, ACCESS_TEXT.noToken);
  if (!readerId) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  // Assembled on read: the riders followed now, so a follow or unfollow shows on the next page (docs/connections.md).
  return [readerId, ...(await followedIdsOf(c.var.db, readerId))];
}

/**
 * The post's media as stored: links as sent, and the rider's uploads claimed for this post (each by a conditional
 * update, so one upload never lands in two posts) and served from their media URL.
 */
async function attachedMedia(
  c: Context<AppEnv>,
  userId: ObjectId,
  postId: ObjectId,
  items: { type?: 'image' | 'video'; url?: string; mediaId?: string }[],
): Promise<{ media: FeedPostDoc['media']; flagged: string[] }> {
  const uploads = [...items.entries()].flatMap(([at, item]) =>
    item.mediaId ? [{ at, id: new ObjectId(item.mediaId) }] : [],
  );
  // The schema let through either a link (type and url) or an upload (mediaId alone).
  const link = (item: (typeof items)[number]) => ({ type: item.type!, url: item.url! });
  if (!uploads.length) return { media: items.map(link), flagged: [] };
  const claimed = await claimForPost(
    c.var.db,
    userId,
    postId,
    uploads.map(({ id }) => id),
  );
  if (!Array.isArray(claimed))
    throw refusal(attachRefusals(`media.${uploads[claimed.at]!.at}.mediaId`), claimed.refused);
  const byId = new Map(claimed.map((media) => [media._id.toHexString(), media]));
  const media = items.map((item) => {
    if (!item.mediaId) return link(item);
    const media = byId.get(item.mediaId.toLowerCase())!;
    return { type: media.kind, url: mediaUrl(c, media._id), mediaId: media._id };
  });
  // A photo the moderation model flagged holds the post it is attached to.
  return { media, flagged: claimed.flatMap((media) => media.withheld?.categories ?? []) };
}

/** Feed posts, mounted under /api/feed. */
export const feedRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const { scope, ...query } = c.req.valid('query');
    const { readerId, hidden } = await readerOf(c);
    const authors = scope === 'following' ? await followingAuthors(c, readerId) : undefined;
    const page = toPage(
      await listPosts(c.var.db, { ...query, hiddenAuthors: hidden, authors, readerId }),
      query.limit,
      (post) => post,
    );
    // The cursor moves on the posts as fetched, also past one left out as unreadable.
    const posts = readEach('feed_posts', page.items, readFeedPost);
    return c.json({ ...page, items: await postViews(c.var.db, posts, readerId) }, 200);
  })
  .openapi(create, async (c) => {
    const { spotId, ...fields } = c.req.valid('json');
    await refuseObjectionable(c, { text: fields.text });
    const spot = spotId ? new ObjectId(spotId) : undefined;
    if (spot && !(await spotExists(c.var.db, spot))) {
      throw refusal(POST_REFUSALS, 'unknown-spot');
    }
    const userId = new ObjectId(c.var.user._id);
    const postId = new ObjectId();
    // Asked first, beside the post's other work, so the rider waits at most MODERATION_TIMEOUT_MS for the model.
    const screened = screenText(c.env, fields.text);
    // Read while the post is stored rather than after: the audience is on the path to every receiver.
    const blocked = blockedEitherWay(c.var.db, userId);
    // A refused or failed write never publishes; a failed read is reported by the publish that awaits it.
    blocked.catch(() => undefined);
    const { media, flagged } = await attachedMedia(c, userId, postId, fields.media);
    const verdict = await screened;
    const categories = flaggedCategories(verdict, flagged);
    const post = await insertPost(c.var.db, userId, {
      _id: postId,
      ...fields,
      media,
      ...(spot ? { spotId: spot } : {}),
      ...holdAtWrite(categories, new Date()),
    }).catch(async (err) => {
      // Media claimed for a post that was not stored would stay attached to nothing.
      await releaseFromPost(c.var.db, postId);
      throw err;
    });
    // Nothing to read for a new post's view: its author is the caller's account, and nobody reacted to or saved it yet.
    await afterScreening(c.var.db, c.env, { type: 'post', id: post._id }, verdict, categories);
    const view = postView({ ...post, held: isWithheld(post.withheld) }, c.var.account, {
      myReaction: null,
      saved: false,
    });
    const { myReaction: _reaction, saved: _saved, ...publicPost } = view;
    publishAfterWrite(c, { namespace: '/feed', name: 'post:created', payload: { post: publicPost } }, async () => {
      const [blockedIds, moderated] = await Promise.all([blocked, hiddenRiders(c.var.db, c.env)]);
      return postAudience(post, moderated.has(userId.toHexString()), blockedIds);
    });
    return c.json(view, 201);
  })
  .openapi(getOne, async (c) => {
    const postId = new ObjectId(c.req.valid('param').postId);
    const readerId = (await optionalCaller(c))?.userId ?? null;
    const post = readOne('feed_posts', await visiblePost(c, postId, readerId), readFeedPost);
    if (!post) throw refusal(POST_REFUSALS, 'not-found');
    const [view] = await postViews(c.var.db, [post], readerId);
    return c.json(view!, 200);
  })
  .openapi(remove, async (c) => {
    const { postId } = c.req.valid('param');
    const outcome = await removePost(c.var.db, new ObjectId(postId), callerOf(c.var.account), c.env.MEDIA);
    if (outcome !== 'deleted') throw refusal(POST_REFUSALS, outcome);
    publishAfterWrite(c, { namespace: '/feed', name: 'post:removed', payload: { postId } }, () => ({
      everyoneBut: [],
    }));
    return c.json({ deleted: true as const, postId }, 200);
  });
