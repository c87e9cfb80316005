import { type Document, ObjectId } from 'mongodb';
import { escapeRegex } from '../../platform/db/contains-pattern';
import { LIMITS } from '../../platform/limits';
import type { StayDoc } from '../documents';
import { foldKey } from './normalise';
import type { StaySearch } from './schema';
import type { StayFilter } from './service';

/** Hides unreviewed stays (interface spec: below 0.50 hidden from default ranking); none is unreviewed too. */
const shown = (includeUnreviewed: boolean): Document =>
  includeUnreviewed ? {} : { sourceConfidence: { $gte: LIMITS.stay.confidenceShown } };

/** The same rule as `shown` on one stored stay: whether the default lists show it. */
export const isShownStay = (stay: Pick<StayDoc, 'sourceConfidence'>): boolean =>
  typeof stay.sourceConfidence === 'number' && stay.sourceConfidence >= LIMITS.stay.confidenceShown;

const exactAnyCase = (text: string) => new RegExp(`^${escapeRegex(text)}$`, 'i');

/** A spot's own list: every stay of the spot in the default ranking, no distance cap. */
export function spotListFilter(spotId: ObjectId, includeUnreviewed: boolean): StayFilter {
  return { spotId, stay: shown(includeUnreviewed) };
}

/** The stays a search asks for; each parameter is described in worker/riding/stays/schema.ts. */
export function searchFilter(query: StaySearch): StayFilter {
  const stay: Document = {
    ...shown(query.includeUnreviewed),
    // Matches stays without distanceKm too: an unknown distance is not a far one.
    distanceKm: { $not: { $gt: query.maxDistanceKm } },
    ...(query.q ? { nameKey: new RegExp(escapeRegex(foldKey(query.q))) } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.city ? { city: exactAnyCase(query.city) } : {}),
    ...(query.country ? { country: exactAnyCase(query.country) } : {}),
    ...(query.maxPriceLevel !== undefined ? { priceLevel: { $lte: query.maxPriceLevel } } : {}),
    ...(query.minRating !== undefined ? { rating: { $gte: query.minRating } } : {}),
  };
  return {
    ...(query.spotId ? { spotId: new ObjectId(query.spotId) } : {}),
    ...(query.near ? { near: { ...query.near, radiusKm: query.radiusKm } } : {}),
    stay,
  };
}
