import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { FeedCommentDoc } from '../documents';

type Author = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

export function commentView(comment: FeedCommentDoc, author: Author | undefined) {
  return {
    _id: comment._id.toHexString(),
    postId: comment.postId.toHexString(),
    author: author ? publicUserView(author) : null,
    text: comment.text,
    createdAt: comment.createdAt.toISOString(),
  };
}
