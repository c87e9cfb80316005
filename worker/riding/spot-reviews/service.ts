import type { Document, ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { storedNumber } from '../../platform/db/stored-expressions';
import { idForms, readId } from '../../platform/db/stored-values';
import { readSpotReview, type SpotReview } from './reader';

// Every query on spot reviews. Ids match whether older code stored them as ObjectIds or hex strings.

/**
 * Writes the caller's review of a spot: one per user and spot (a unique index), a second one
 * replaces the first. Returns the stored review and whether it is new.
 */
export async function putReview(
  store: Store,
  spotId: ObjectId,
  userId: ObjectId,
  fields: { rating: number; text?: string },
): Promise<{ review: SpotReview; created: boolean }> {
  const now = new Date();
  // A replacing review without text drops the old text rather than keeping it.
  const update = {
    $set: { rating: fields.rating, updatedAt: now, ...(fields.text !== undefined ? { text: fields.text } : {}) },
    $setOnInsert: { spotId, userId, createdAt: now },
    ...(fields.text === undefined ? { $unset: { text: '' as const } } : {}),
  };
  const write = () =>
    // Both fields by `$in`, so an upsert copies neither from the filter: `$setOnInsert` writes them as ObjectIds.
    store.spot_reviews.findOneAndUpdate(
      { spotId: { $in: idForms(spotId) }, userId: { $in: idForms(userId) } } as Document,
      update,
      {
        upsert: true,
        returnDocument: 'after',
        includeResultMetadata: true,
      },
    );
  // Two first reviews at once: the unique index lets one insert; the other is now an update.
  const result = await onDuplicateKey(write, write);
  const review = readSpotReview(result.value);
  if (!review) throw new Error(`review of spot ${spotId.toHexString()} unreadable right after its write`);
  return { review, created: result.lastErrorObject?.updatedExisting === false };
}

/** A page of the spot's reviews, newest first (`limit + 1` rows for the pager). */
export function listReviews(store: Store, spotId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.spot_reviews
    .find({ spotId: { $in: idForms(spotId) }, ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) } as Document)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export type RatingSummary = { ratingAverage: number | null; reviewCount: number };

/**
 * The spots' mean ratings and counts, computed from the reviews on each read. Not stored on
 * the spot: a stored sum would drift when an account deletion removes reviews, and this
 * grouping runs on the { spotId } index.
 */
export async function ratingSummaries(store: Store, spotIds: ObjectId[]): Promise<Map<string, RatingSummary>> {
  // Ratings older code stored as text count as their number; a review with no usable rating counts, unrated.
  const rating = storedNumber('$rating', null);
  const rows = await store.spot_reviews
    .aggregate<{ _id: unknown; sum: number; rated: number; count: number }>([
      { $match: { spotId: { $in: spotIds.flatMap(idForms) } } },
      {
        $group: {
          _id: '$spotId',
          sum: { $sum: rating },
          rated: { $sum: { $cond: [{ $eq: [rating, null] }, 0, 1] } },
          count: { $sum: 1 },
        },
      },
    ])
    .toArray();
  // A spot's reviews stored with its id in both forms group apart: their sums add up.
  const totals = new Map<string, { sum: number; rated: number; count: number }>();
  for (const row of rows) {
    const spotId = readId(row._id)?.toHexString();
    if (!spotId) continue;
    const total = totals.get(spotId) ?? { sum: 0, rated: 0, count: 0 };
    totals.set(spotId, { sum: total.sum + row.sum, rated: total.rated + row.rated, count: total.count + row.count });
  }
  return new Map(
    spotIds.map((id) => {
      const total = totals.get(id.toHexString());
      return [
        id.toHexString(),
        { ratingAverage: total?.rated ? total.sum / total.rated : null, reviewCount: total?.count ?? 0 },
      ];
    }),
  );
}

export async function ratingSummary(store: Store, spotId: ObjectId): Promise<RatingSummary> {
  return (await ratingSummaries(store, [spotId])).get(spotId.toHexString())!;
}

/** Deletes a review for its author or an admin; says why not otherwise. */
export async function deleteReview(
  store: Store,
  spotId: ObjectId,
  reviewId: ObjectId,
  caller: { userId: ObjectId; isAdmin: boolean },
): Promise<'deleted' | 'not-found' | 'not-yours'> {
  const review: Document = { _id: { $in: idForms(reviewId) }, spotId: { $in: idForms(spotId) } };
  const owned: Document = caller.isAdmin ? {} : { userId: { $in: idForms(caller.userId) } };
  const deleted = await store.spot_reviews.findOneAndDelete({ ...review, ...owned });
  if (deleted) return 'deleted';
  const exists = await store.spot_reviews.countDocuments(review, { limit: 1 });
  return exists ? 'not-yours' : 'not-found';
}
