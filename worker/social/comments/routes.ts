import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import { isWithheld } from '../../moderation/documents';
import { screenText } from '../../moderation/model/screen';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { readEach, readOne } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { OPTIONAL_TOKEN_REFUSALS, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { callerOf } from '../../platform/tokens/service';
import { blockedBetween, blockedIdsOf } from '../blocks/service';
import { hiddenFrom, readerOf, refuseUnreachablePost } from '../feed/reader';
import { PostParam } from '../feed/schema';
import { findPost } from '../feed/service';
import { afterScreening, flaggedCategories, holdAtWrite } from '../review/screening';
import { readFeedComment, readFeedPost } from '../stored-feed';
import { heldFrom, hiddenRiders } from '../visibility';
import { COMMENT_REFUSALS } from './refusals';
import { Comment, CommentPage, CommentParams, DeletedComment, NewComment } from './schema';
import { deleteComment, insertComment, listComments } from './service';
import { commentView } from './views';

const TAGS = ['feed'];
const noPost = errorResponse('No such post');

const list = defineRoute({
  method: 'get',
  path: '/{postId}/comments',
  tags: TAGS,
  summary: "A post's comments, newest first",
  description:
    "Comments by riders the post's author blocked, comments held for review and comments by suspended riders are left out for every reader (a rider sees their own held comments, marked `held`). With a valid `x-auth-token`, so are comments by riders on either side of a block with the caller, and a post by one of them is not found; so is a post held from the reader.",
  security: PUBLIC_OR_TOKEN,
  request: { params: PostParam, query: PageQuery },
  responses: { 200: jsonResponse(CommentPage, 'A page of comments'), ...OPTIONAL_TOKEN_REFUSALS, 404: noPost },
});

const create = defineRoute({
  method: 'post',
  path: '/{postId}/comments',
  tags: TAGS,
  summary: 'Comment on a post',
  description:
    'With a moderation model configured, a comment it flags is stored held for review: answered with `held: true` and shown to you alone until an admin decides (docs/moderation.md).',
  middleware: [auth()] as const,
  request: { params: PostParam, ...jsonBody(NewComment) },
  responses: { 201: jsonResponse(Comment, 'The new comment'), 404: noPost, ...OBJECTIONABLE_TEXT },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{postId}/comments/{commentId}',
  tags: TAGS,
  summary: "Delete a comment (its author, the post's author or an admin)",
  middleware: [auth()] as const,
  request: { params: CommentParams },
  responses: {
    200: jsonResponse(DeletedComment, 'Deleted'),
    403: errorResponse('Neither your comment nor your post'),
    404: errorResponse('No such post, or no such comment on it'),
  },
});

/** Comments on feed posts, mounted under /api/feed. */
export const commentRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const postId = new ObjectId(c.req.valid('param').postId);
    const [stored, { readerId, hidden }] = await Promise.all([findPost(c.var.db, postId), readerOf(c)]);
    const post = readOne('feed_posts', stored, readFeedPost);
    if (!post || !stored || hiddenFrom(hidden, post.userId) || heldFrom(stored, readerId))
      throw refusal(COMMENT_REFUSALS, 'post-not-found');
    const query = c.req.valid('query');
    // A rider the author blocked is taken off the author's posts for everyone, not only for the author.
    const removedByAuthor = await blockedIdsOf(c.var.db, post.userId ?? null);
    const rows = await listComments(c.var.db, postId, {
      ...query,
      hiddenAuthors: new Set([...hidden, ...removedByAuthor]),
      readerId,
    });
    // The cursor moves on the comments as fetched, also past one left out as unreadable.
    const page = toPage(rows, query.limit, (row) => row);
    const comments = readEach('feed_comments', page.items, readFeedComment);
    const authors = await publicUsers(
      c.var.db,
      comments.flatMap((comment) => comment.userId ?? []),
    );
    const items = comments.map((comment) =>
      commentView(comment, postId, comment.userId && authors.get(comment.userId.toHexString())),
    );
    return c.json({ items, nextCursor: page.nextCursor }, 200);
  })
  .openapi(create, async (c) => {
    const userId = new ObjectId(c.var.user._id);
    const postId = new ObjectId(c.req.valid('param').postId);
    const { text } = c.req.valid('json');
    // The word filter first: a refused comment costs no model call.
    await refuseObjectionable(c, { text });
    // Asked next, beside the post's check, so the rider waits at most MODERATION_TIMEOUT_MS for the model.
    const screened = screenText(c.env, text);
    await refuseUnreachablePost(c, postId);
    const verdict = await screened;
    const categories = flaggedCategories(verdict);
    const comment = await insertComment(c.var.db, postId, userId, text, holdAtWrite(categories, new Date()));
    if (comment === 'not-found') throw refusal(COMMENT_REFUSALS, 'post-not-found');
    await afterScreening(c.var.db, c.env, { type: 'comment', id: comment._id, postId }, verdict, categories);
    const held = isWithheld(comment.withheld);
    const authors = await publicUsers(c.var.db, [userId]);
    const view = commentView({ ...comment, held }, postId, authors.get(userId.toHexString()));
    publishAfterWrite(
      c,
      { namespace: '/feed', name: 'comment:created', payload: { postId: view.postId, comment: view } },
      async () => {
        // Only the post's author hears of it, and not of their own comment, one from a rider either of them blocked,
        // or one from a rider hidden from others (suspended or withheld).
        const authorId = readOne('feed_posts', await findPost(c.var.db, postId), readFeedPost)?.userId;
        const tellAuthor =
          !held &&
          authorId &&
          !authorId.equals(userId) &&
          !(await hiddenRiders(c.var.db, c.env)).has(userId.toHexString()) &&
          !(await blockedBetween(c.var.db, authorId, [userId]));
        return { riders: tellAuthor ? [authorId.toHexString()] : [] };
      },
    );
    return c.json(view, 201);
  })
  .openapi(remove, async (c) => {
    const { postId, commentId } = c.req.valid('param');
    const caller = callerOf(c.var.account);
    const outcome = await deleteComment(c.var.db, new ObjectId(postId), new ObjectId(commentId), caller);
    if (outcome !== 'deleted') throw refusal(COMMENT_REFUSALS, outcome);
    return c.json({ deleted: true as const, commentId }, 200);
  });
