import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { SpotReview } from './reader';

type Author = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

/** A review as everyone sees it (read by worker/riding/spot-reviews/reader.ts); no author shows as a deleted rider. */
export function reviewView(review: SpotReview, author: Author | undefined) {
  return {
    _id: review._id.toHexString(),
    spotId: review.spotId.toHexString(),
    user: author ? publicUserView(author) : null,
    rating: review.rating,
    ...(review.text ? { text: review.text } : {}),
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
  };
}
