import type { ObjectId } from 'mongodb';
import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { FeedComment } from '../stored-feed';

type Author = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

/** A comment on `postId`, the post it was listed or written under. */
export function commentView(comment: FeedComment, postId: ObjectId, author: Author | undefined) {
  return {
    _id: comment._id.toHexString(),
    postId: postId.toHexString(),
    author: author ? publicUserView(author) : null,
    text: comment.text,
    ...(comment.held ? { held: true } : {}),
    createdAt: comment.createdAt.toISOString(),
  };
}
