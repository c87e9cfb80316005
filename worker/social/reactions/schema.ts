import { z } from '@hono/zod-openapi';
import { PostCounts, ReactionType } from '../feed/schema';

export const ReactionBody = z.object({ type: ReactionType }).strict();

export const ReactionState = z
  .object({
    postId: z.string(),
    myReaction: ReactionType.nullable().describe("the caller's reaction now; null after a delete"),
    counts: PostCounts.describe("the post's counts right after this write"),
  })
  .openapi('ReactionState');
