import { type Document, ObjectId } from 'mongodb';
import { storedNumber } from '../../platform/db/stored-expressions';
import { readEach, readId } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import { readStayId } from './reader';

/**
 * The default ranking of stays, as pipeline stages so the database sorts and pages: confidence
 * band (interface spec: 0.90-1.00, 0.70-0.89, 0.50-0.69, then below 0.50 or none), rating high to
 * low (none last), distance near to far (none last), then spot id and stay id so ties page stably.
 */

/** One stay with its spot summary and its ranking keys, as the ranking stages leave it. */
export interface RankedStay {
  /** As stored: older code may have left any value here (worker/riding/stays/views.ts reads them). */
  spotId: unknown;
  spotName: unknown;
  stay: unknown;
  /** Band 0 (best) to 3 (below 0.50, or no sourceConfidence: unreviewed). */
  band: number;
  ratingKey: number;
  distanceKey: number;
}

/** The position of a stay in the ranking: what a cursor holds. */
type Position = Pick<RankedStay, 'band' | 'ratingKey' | 'distanceKey'> & { spotId: string; stayId: string };

const [verified, trusted, reviewable] = LIMITS.stay.confidenceBands;
// Below 0.50 and no sourceConfidence alike: nobody has reviewed the stay (shown only on request).
const UNREVIEWED_BAND = 3;
// Sorts after every real rating (0..5) when descending, and after every real distance when ascending.
const NO_RATING = -1;
const NO_DISTANCE = Number.MAX_SAFE_INTEGER;

// The ranking numbers read as readNumber reads them, so a rating older code stored as text ranks as that number.
const confidence = storedNumber('$stay.sourceConfidence', null);

// The first band whose lower bound the confidence reaches; nested $cond, as $switch's `then` key trips Biome.
const band = [verified, trusted, reviewable].reduceRight<unknown>(
  (otherwise, lower, index) => ({
    $cond: [{ $and: [{ $ne: [confidence, null] }, { $gte: [confidence, lower] }] }, index, otherwise],
  }),
  UNREVIEWED_BAND,
);

/** The stages after `$unwind: '$stays'` and the stay filter: spot summary, keys, keyset, order, page. */
export function rankingStages(after: Position | undefined, limit: number): Document[] {
  return [
    { $project: { _id: 0, spotId: '$_id', spotName: '$name', stay: '$stays' } },
    {
      $addFields: {
        band,
        ratingKey: storedNumber('$stay.rating', NO_RATING),
        distanceKey: storedNumber('$stay.distanceKm', NO_DISTANCE),
      },
    },
    ...(after ? [{ $match: afterPosition(after) }] : []),
    { $sort: { band: 1, ratingKey: -1, distanceKey: 1, spotId: 1, 'stay._id': 1 } },
    { $limit: limit + 1 },
  ];
}

/** Keyset condition: everything that ranks after the position (sort order as in rankingStages). */
function afterPosition(p: Position): Document {
  const spotId = new ObjectId(p.spotId);
  return {
    $or: [
      { band: { $gt: p.band } },
      { band: p.band, ratingKey: { $lt: p.ratingKey } },
      { band: p.band, ratingKey: p.ratingKey, distanceKey: { $gt: p.distanceKey } },
      { band: p.band, ratingKey: p.ratingKey, distanceKey: p.distanceKey, spotId: { $gt: spotId } },
      {
        band: p.band,
        ratingKey: p.ratingKey,
        distanceKey: p.distanceKey,
        spotId,
        'stay._id': { $gt: p.stayId },
      },
    ],
  };
}

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));

/** The opaque cursor after a stay: its ranking position, so pages hold while stays are added; none without ids. */
export function encodeRankCursor(row: RankedStay): string | undefined {
  const spotId = readId(row.spotId)?.toHexString();
  const stayId = readStayId((row.stay as { _id?: unknown } | null)?._id);
  if (!spotId || !stayId || !isHexId(stayId)) return undefined;
  return toBase64Url(JSON.stringify([row.band, row.ratingKey, row.distanceKey, spotId, stayId]));
}

const isHexId = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The position a cursor of ours holds, or undefined for anything else. */
export function decodeRankCursor(cursor: string): Position | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64Url(cursor));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) return undefined;
  const [band, ratingKey, distanceKey, spotId, stayId] = parsed;
  if (!isNumber(band) || !isNumber(ratingKey) || !isNumber(distanceKey) || !isHexId(spotId) || !isHexId(stayId)) {
    return undefined;
  }
  return { band, ratingKey, distanceKey, spotId, stayId };
}

/**
 * Turns `limit + 1` ranked rows into a page and the next cursor, taken from the last row fetched that has one;
 * a row `view` cannot read is left out (worker/platform/db/stored-values.ts readEach).
 */
export function rankedPage<V>(rows: RankedStay[], limit: number, view: (row: RankedStay) => V | undefined) {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? (items.map(encodeRankCursor).reverse().find(Boolean) ?? null) : null;
  return { items: readEach('spots.stays', items, view), nextCursor };
}
