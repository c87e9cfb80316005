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

/** A link the client hosts, or one of the rider's own uploads (docs/media.md), attached to this post alone. */
const MediaItem = z.union([
  z.object({ type: z.enum(['image', 'video']), url: WebUrl }).strict(),
  z.object({ mediaId: IdString.describe('an upload of yours from POST /api/media or a video upload') }).strict(),
]);

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
