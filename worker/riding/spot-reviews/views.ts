import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { SpotReviewDoc } from '../documents';

type Author = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

export function reviewView(review: SpotReviewDoc, author: Author | undefined) {
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
