import { z } from '@hono/zod-openapi';
import { nameWords } from '../../accounts/users/name-words';
import { PublicUser } from '../../accounts/users/schema';
import { PageQuery } from '../../platform/http/pagination';
import { queryText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';

export const RiderProfile = z
  .object({
    user: PublicUser,
    followerCount: z.number().int(),
    followingCount: z.number().int(),
    homieCount: z.number().int(),
    postCount: z.number().int(),
    relationship: z
      .object({
        following: z.boolean().describe('you follow the rider'),
        followedBy: z.boolean().describe('the rider follows you'),
        homie: z.boolean().describe('both'),
      })
      .optional()
      .describe('only with a valid token'),
  })
  .openapi('RiderProfile');

export const RiderSearchQuery = PageQuery.extend({
  q: queryText()
    .min(LIMITS.riderSearch.queryMin, `must be at least ${LIMITS.riderSearch.queryMin} characters`)
    .refine((q) => nameWords(q).length > 0, 'must contain a letter or digit')
    .describe('a prefix of words of the name, any case, accents ignored: "jose ram" finds José Ramírez'),
});
