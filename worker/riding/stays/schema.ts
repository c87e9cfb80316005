import { z } from '@hono/zod-openapi';
import { IdString, pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';
import { queryText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';
import { STAY_TYPES } from '../documents';
import { NearPoint } from '../spots/schema';
import { httpUrl } from './normalise';
import { decodeRankCursor } from './ranking';

const S = LIMITS.stay;
export const SpotParam = z.object({ spotId: pathId('spotId') });
export const StayParams = SpotParam.extend({ stayId: pathId('stayId') });

const text = (max: number) => z.string().trim().min(1, 'must not be blank').max(max);
const url = z
  .string()
  .trim()
  .max(LIMITS.urlMax)
  .transform((value, ctx) => {
    const href = httpUrl(value);
    if (!href) ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
    return href ?? z.NEVER;
  });
const price = z.number().min(0).max(S.nightlyPriceMax);

/** A stay as clients send it (POST creates, PUT replaces every field below). */
export const StayBody = z
  .object({
    name: text(S.nameMax),
    type: z.enum(STAY_TYPES),
    priceLevel: z.number().int('must be a whole number').min(S.priceLevelMin).max(S.priceLevelMax).optional(),
    nightlyPriceMin: price.optional(),
    nightlyPriceMax: price.optional(),
    rating: z.number().min(0).max(S.ratingMax).optional(),
    reviewCount: z.number().int('must be a whole number').min(0).max(S.reviewCountMax).optional(),
    distanceKm: z.number().min(0).max(S.distanceKmMax).describe('from the spot').optional(),
    bookingUrl: url.optional(),
    imageUrl: url.optional(),
    address: text(S.fieldMax).optional(),
    city: text(S.fieldMax).optional(),
    state: text(S.fieldMax).optional(),
    country: text(S.fieldMax).optional().describe('a country name or ISO 3166-1 alpha-2 code'),
    source: text(S.fieldMax).optional(),
    sourceConfidence: z
      .number()
      .min(0)
      .max(1)
      .describe('0.90-1.00 verified; 0.70-0.89 trusted feed; 0.50-0.69 needs review; below 0.50 or absent: hidden')
      .optional(),
    notes: text(S.notesMax).optional(),
    tags: z.array(text(S.tagMax)).max(S.tagsMax).optional(),
  })
  .strict()
  .superRefine((stay, ctx) => {
    const { nightlyPriceMin: min, nightlyPriceMax: max } = stay;
    if (min === undefined || max === undefined || min <= max) return;
    for (const field of ['nightlyPriceMin', 'nightlyPriceMax']) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'nightlyPriceMin must not exceed nightlyPriceMax' });
    }
  });
export type StayFields = z.infer<typeof StayBody>;

export const Stay = z
  .object({
    _id: z.string(),
    spotId: z.string(),
    spotName: z.string(),
    name: z.string(),
    type: z.enum(STAY_TYPES),
    priceLevel: z.number().int().optional(),
    nightlyPriceMin: z.number().optional(),
    nightlyPriceMax: z.number().optional(),
    rating: z.number().optional(),
    reviewCount: z.number().int().optional(),
    distanceKm: z.number().optional(),
    bookingUrl: z.string().optional(),
    imageUrl: z.string().optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    country: z.string().optional(),
    source: z.string().optional(),
    sourceConfidence: z.number().optional(),
    notes: z.string().optional(),
    tags: z.array(z.string()).optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    createdBy: z.string().nullable().describe("the creator's user id; null once that account is deleted"),
  })
  .openapi('Stay');

export const DeletedStay = z.object({
  deleted: z.boolean().describe('false when it was already gone'),
  stayId: z.string(),
});

const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

const rankCursor = z
  .string()
  .optional()
  .transform((cursor, ctx) => {
    if (!cursor) return undefined;
    const position = decodeRankCursor(cursor);
    if (!position) ctx.addIssue({ code: 'custom', message: 'is not a cursor this API returned' });
    return position ?? z.NEVER;
  });

/** Paging and the admins' view of unreviewed stays, shared by both lists. */
export const RankedListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  cursor: rankCursor.describe('nextCursor of the previous page: the ranking position after its last stay'),
  includeUnreviewed: flag.describe(
    'admins only (x-auth-token of an admin; anyone else gets 403): also list stays below 0.50 or without sourceConfidence, ranked last',
  ),
});

export const StaySearchQuery = RankedListQuery.extend({
  q: queryText().min(1).describe('part of the name, any case or accents').optional(),
  spotId: IdString.optional(),
  city: queryText(S.fieldMax).min(1, 'must not be blank').describe('exact, any case').optional(),
  country: queryText(S.fieldMax).min(1, 'must not be blank').describe('exact, any case').optional(),
  type: z.enum(STAY_TYPES).optional(),
  maxPriceLevel: z.coerce
    .number()
    .int()
    .min(S.priceLevelMin)
    .max(S.priceLevelMax)
    .describe('stays without a priceLevel are left out')
    .optional(),
  minRating: z.coerce.number().min(0).max(S.ratingMax).describe('stays without a rating are left out').optional(),
  maxDistanceKm: z.coerce
    .number()
    .min(0)
    .max(S.distanceKmMax)
    .default(S.searchDistanceKmDefault)
    .describe('from the stay to its spot; stays without distanceKm are kept (ranked last on distance)'),
  near: NearPoint.describe('"lat,lng": only stays of spots within radiusKm of this point').optional(),
  radiusKm: z.coerce.number().gt(0).max(S.nearRadiusKmMax).default(S.nearRadiusKmDefault).describe('with near'),
});
export type StaySearch = z.infer<typeof StaySearchQuery>;

export const StayPage = pageOf(Stay);
