import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { SpotList } from '../spot-lists/schema';
import { TrickListWithCount } from '../tricklists/schema';

export const Listings = z
  .object({
    tricklists: z
      .array(TrickListWithCount)
      .describe(`your newest ${LIMITS.pageSizeMax} trick lists, each with its trick count`),
    spotlists: z.array(SpotList).describe(`your newest ${LIMITS.pageSizeMax} spot lists, each with its spot count`),
    counts: z.object({
      tricklists: z.number().int().describe('all your trick lists'),
      spotlists: z.number().int().describe('all your spot lists'),
    }),
  })
  .openapi('Listings');
