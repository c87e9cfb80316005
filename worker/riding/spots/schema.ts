import { z } from '@hono/zod-openapi';
import { pathId } from '../../platform/http/ids';
import { queryText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';
import { COUNTRY_CODES, SPORTS } from '../../platform/sports';
import { decodePosition, decodeSyncCursor } from './position';

const Sport = z.enum(SPORTS);
const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

export const Country = z
  .string()
  .trim()
  .transform((code) => code.toUpperCase())
  .refine((code) => COUNTRY_CODES.has(code), 'must be an ISO 3166-1 alpha-2 country code, e.g. "DE"');

const Location = z
  .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .strict()
  .openapi('LatLng');

const Sports = z
  .array(Sport)
  .min(1, 'must name at least one sport')
  .max(SPORTS.length)
  .refine((sports) => new Set(sports).size === sports.length, 'must not repeat a sport');

export const NewSpotBody = z
  .object({
    name: text(LIMITS.spot.nameMax),
    sports: Sports,
    location: Location,
    description: text(LIMITS.spot.descriptionMax).optional(),
    address: text(LIMITS.spot.addressMax).optional(),
    city: text(LIMITS.spot.placeMax).optional(),
    state: text(LIMITS.spot.placeMax).optional(),
    country: Country.optional(),
  })
  .strict();

/** Any subset of the fields; `null` clears an optional one. */
export const SpotChangesBody = z
  .object({
    name: text(LIMITS.spot.nameMax).optional(),
    sports: Sports.optional(),
    location: Location.optional(),
    description: text(LIMITS.spot.descriptionMax).nullable().optional(),
    address: text(LIMITS.spot.addressMax).nullable().optional(),
    city: text(LIMITS.spot.placeMax).nullable().optional(),
    state: text(LIMITS.spot.placeMax).nullable().optional(),
    country: Country.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field');

export const SpotParam = z.object({ spotId: pathId('spotId') });

/** `lat,lng` in degrees. */
export const NearPoint = z.string().transform((value, ctx) => {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value);
  const [lat, lng] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) {
    ctx.addIssue({ code: 'custom', message: 'must be "lat,lng" in degrees, e.g. "52.52,13.405"' });
    return z.NEVER;
  }
  return { lat, lng };
});

/** An opaque cursor this API returned; anything else is a 400 naming the parameter. */
const opaque = <T>(decode: (text: string) => T | undefined) =>
  z
    .string()
    .optional()
    .transform((cursor, ctx) => {
      if (cursor === undefined || cursor === '') return undefined;
      const decoded = decode(cursor);
      if (!decoded) {
        ctx.addIssue({ code: 'custom', message: 'is not a cursor this API returned' });
        return z.NEVER;
      }
      return decoded;
    });

export const SpotSearchQuery = z
  .object({
    q: queryText().optional().describe('matches name or city, case-insensitive'),
    sport: Sport.optional(),
    near: NearPoint.optional().describe('"lat,lng": results nearest first, each with distanceKm'),
    radiusKm: z.coerce
      .number()
      .positive()
      .max(LIMITS.spotSearchRadiusKm.max)
      .optional()
      .describe(
        `with near only: search radius in km (default ${LIMITS.spotSearchRadiusKm.default}, max ${LIMITS.spotSearchRadiusKm.max})`,
      ),
    limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
    cursor: opaque(decodePosition),
  })
  .refine((query) => query.radiusKm === undefined || query.near !== undefined, {
    message: 'needs near',
    path: ['radiusKm'],
  });

export const SyncQuery = z.object({
  since: opaque(decodeSyncCursor).describe('the nextCursor of the previous sync; absent for a full sync'),
  limit: z.coerce.number().int().min(1).max(LIMITS.spotSync.pageMax).default(LIMITS.spotSync.pageDefault),
});

export const Spot = z
  .object({
    _id: z.string(),
    name: z.string(),
    sports: z.array(z.string()),
    location: Location.nullable().describe('null only for spots stored before locations were required'),
    description: z.string().optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    country: z.string().optional(),
    createdBy: z.string().nullable().describe("the creator's id; null once that account is deleted"),
    stayCount: z
      .number()
      .int()
      .describe(
        'places to stay listed at /api/spots/{spotId}/stays (without includeUnreviewed: unreviewed ones are not counted)',
      ),
    distanceKm: z.number().optional().describe('only on a near search'),
    ratingAverage: z
      .number()
      .nullable()
      .optional()
      .describe('mean review rating, null without reviews; not in sync pages'),
    reviewCount: z.number().int().optional().describe('number of reviews; not in sync pages'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Spot');

export const SpotPage = z.object({ items: z.array(Spot), nextCursor: z.string().nullable() });

export const SpotSync = z
  .object({
    spots: z.array(Spot).describe('created or changed since the cursor, oldest change first'),
    deletedIds: z.array(z.string()).describe('spots deleted since the cursor'),
    nextCursor: z.string().describe('store it and send it as since next time'),
    hasMore: z.boolean().describe('true: call again at once with nextCursor'),
    reset: z.boolean().describe('true: this is a full sync; drop every spot stored before applying it'),
  })
  .openapi('SpotSync');

export const DeletedSpot = z.object({ deleted: z.literal(true), spotId: z.string() });

export type SpotSearch = z.infer<typeof SpotSearchQuery>;
export type NewSpot = z.infer<typeof NewSpotBody>;
export type SpotChanges = z.infer<typeof SpotChangesBody>;
