import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { PostParam } from '../feed/schema';

export const CommentParams = PostParam.extend({ commentId: pathId('commentId') });

export const NewComment = z
  .object({ text: z.string().trim().min(1, 'must not be blank').max(LIMITS.feed.commentMax) })
  .strict();

export const Comment = z
  .object({
    _id: z.string(),
    postId: z.string(),
    author: PublicUser.nullable().describe('null when the author has since deleted their account'),
    text: z.string(),
    held: z
      .boolean()
      .optional()
      .describe(
        'true while the comment is held for review: only its author sees it (docs/moderation.md); absent otherwise',
      ),
    createdAt: z.string(),
  })
  .openapi('FeedComment');

export const CommentPage = pageOf(Comment);
export const DeletedComment = z.object({ deleted: z.literal(true), commentId: z.string() });
