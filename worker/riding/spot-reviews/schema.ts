import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';

const { ratingMin, ratingMax, textMax } = LIMITS.review;
export const SpotParam = z.object({ spotId: pathId('spotId') });
export const ReviewParams = SpotParam.extend({ reviewId: pathId('reviewId') });

export const ReviewBody = z
  .object({
    rating: z.number().int('must be a whole number of stars').min(ratingMin).max(ratingMax),
    text: z.string().trim().max(textMax).optional(),
  })
  .strict();

export const Review = z
  .object({
    _id: z.string(),
    spotId: z.string(),
    user: PublicUser.nullable().describe('null when the author has since deleted their account'),
    rating: z.number().int(),
    text: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SpotReview');

export const RatingSummary = z.object({
  ratingAverage: z.number().nullable().describe('mean of the ratings; null without reviews'),
  reviewCount: z.number().int(),
});

export const ReviewPage = pageOf(Review).extend(RatingSummary.shape);
export const DeletedReview = z.object({ deleted: z.literal(true), reviewId: z.string() });
