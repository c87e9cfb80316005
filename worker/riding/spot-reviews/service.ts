import type { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { SpotReviewDoc } from '../documents';

// Every query on spot reviews.

/**
 * Writes the caller's review of a spot: one per user and spot (a unique index), a second one
 * replaces the first. Returns the stored review and whether it is new.
 */
export async function putReview(
  store: Store,
  spotId: ObjectId,
  userId: ObjectId,
  fields: { rating: number; text?: string },
): Promise<{ review: SpotReviewDoc; created: boolean }> {
  const now = new Date();
  // A replacing review without text drops the old text rather than keeping it.
  const update = {
    $set: { rating: fields.rating, updatedAt: now, ...(fields.text !== undefined ? { text: fields.text } : {}) },
    $setOnInsert: { spotId, userId, createdAt: now },
    ...(fields.text === undefined ? { $unset: { text: '' as const } } : {}),
  };
  const write = () =>
    store.spot_reviews.findOneAndUpdate({ spotId, userId }, update, {
      upsert: true,
      returnDocument: 'after',
      includeResultMetadata: true,
    });
  // Two first reviews at once: the unique index lets one insert; the other is now an update.
  const result = await onDuplicateKey(write, write);
  return { review: result.value!, created: result.lastErrorObject?.updatedExisting === false };
}

/** A page of the spot's reviews, newest first (`limit + 1` rows for the pager). */
export function listReviews(store: Store, spotId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.spot_reviews
    .find({ spotId, ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) })
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
  const rows = await store.spot_reviews
    .aggregate<{ _id: ObjectId; average: number; count: number }>([
      { $match: { spotId: { $in: spotIds } } },
      { $group: { _id: '$spotId', average: { $avg: '$rating' }, count: { $sum: 1 } } },
    ])
    .toArray();
  const found = new Map(
    rows.map((row) => [row._id.toHexString(), { ratingAverage: row.average, reviewCount: row.count }]),
  );
  return new Map(
    spotIds.map((id) => [id.toHexString(), found.get(id.toHexString()) ?? { ratingAverage: null, reviewCount: 0 }]),
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
  const owned = caller.isAdmin ? {} : { userId: caller.userId };
  const deleted = await store.spot_reviews.findOneAndDelete({ _id: reviewId, spotId, ...owned });
  if (deleted) return 'deleted';
  const exists = await store.spot_reviews.countDocuments({ _id: reviewId, spotId }, { limit: 1 });
  return exists ? 'not-yours' : 'not-found';
}
