import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { IdString, pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';
import { WebUrl } from '../../platform/http/web-url';
import { LIMITS } from '../../platform/limits';

export const SpotParam = z.object({ spotId: pathId('spotId') });

export const LandingBody = z
  .object({
    trickName: z.string().trim().min(1, 'must not be empty').max(LIMITS.trickName.max),
    trickipediaId: IdString.optional(),
    landedAt: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
      .optional()
      .describe('when the trick was landed; defaults to now'),
    videoUrl: WebUrl.optional(),
  })
  .strict();

export const Landing = z
  .object({
    _id: z.string(),
    spotId: z.string(),
    user: PublicUser.nullable().describe('null when the rider has since deleted their account'),
    trickName: z.string(),
    trickipediaId: z.string().optional(),
    landedAt: z.string(),
    videoUrl: z.string().optional(),
    createdAt: z.string(),
  })
  .openapi('SpotTrickLanding');

export const LandingPage = pageOf(Landing);
