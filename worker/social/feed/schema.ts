import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { IdString, pathId } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { WebUrl } from '../../platform/http/web-url';
import { LIMITS } from '../../platform/limits';

const { textMax, mediaMax } = LIMITS.feed;
export const PostParam = z.object({ postId: pathId('postId') });

/** The two reactions (product decisions, Social); one per rider and post. */
export const ReactionType = z.enum(['love', 'respect']);

/**
 * A link the client hosts (`type` and `url`), or one of the rider's own uploads (`mediaId`, docs/media.md),
 * attached to this post alone. One object rather than a union, so a refusal names the field at fault.
 */
const MediaItem = z
  .object({
    type: z.enum(['image', 'video']).optional().describe('with url: a link'),
    url: WebUrl.optional(),
    mediaId: IdString.optional().describe('alone: an upload of yours (POST /api/media or a video upload)'),
  })
  .strict()
  .superRefine((item, ctx) => {
    for (const key of ['type', 'url'] as const) {
      if (item.mediaId !== undefined && item[key] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'not sent with mediaId' });
      }
      if (item.mediaId === undefined && item[key] === undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required without mediaId' });
      }
    }
  });

export const NewPost = z
  .object({
    text: z.string().trim().min(1, 'must not be blank').max(textMax).optional(),
    media: z.array(MediaItem).max(mediaMax).default([]),
    spotId: IdString.optional(),
  })
  .strict()
  .refine((post) => post.text !== undefined || post.media.length > 0, {
    message: 'a post needs text or at least one media item',
    path: ['text'],
  });

export const PostCounts = z.object({
  love: z.number().int(),
  respect: z.number().int(),
  comments: z.number().int(),
});

export const FeedPost = z
  .object({
    _id: z.string(),
    author: PublicUser.nullable().describe('null when the author has since deleted their account'),
    text: z.string().optional(),
    media: z.array(
      z.object({
        type: z.enum(['image', 'video']),
        url: z.string(),
        mediaId: z.string().optional().describe('set for an uploaded item; its url serves it'),
      }),
    ),
    spotId: z.string().optional(),
    counts: PostCounts,
    myReaction: ReactionType.nullable().optional().describe("the caller's own reaction; only with a valid token"),
    saved: z.boolean().optional().describe('whether the caller saved the post; only with a valid token'),
    held: z
      .boolean()
      .optional()
      .describe(
        'true while the post is held for review: only its author sees it (docs/moderation.md); absent otherwise',
      ),
    createdAt: z.string(),
  })
  .openapi('FeedPost');

export const FeedPage = pageOf(FeedPost);
export const DeletedPost = z.object({ deleted: z.literal(true), postId: z.string() });

export const FeedQuery = PageQuery.extend({
  scope: z
    .enum(['all', 'following'])
    .default('all')
    .describe('`following`: only posts by riders you follow and your own (needs x-auth-token)'),
});
