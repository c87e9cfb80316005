import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { ReactionDoc } from '../documents';
import type { FeedPost } from '../stored-feed';

type Author = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;
/** What the caller did with the post; absent for the public view. */
export type ViewerState = { myReaction: ReactionDoc['type'] | null; saved: boolean };

export function postView(post: FeedPost, author: Author | undefined, viewer?: ViewerState) {
  return {
    _id: post._id.toHexString(),
    author: author ? publicUserView(author) : null,
    ...(post.text !== undefined ? { text: post.text } : {}),
    media: post.media.map(({ type, url, mediaId }) => ({
      type,
      url,
      ...(mediaId ? { mediaId: mediaId.toHexString() } : {}),
    })),
    ...(post.spotId ? { spotId: post.spotId.toHexString() } : {}),
    counts: { ...post.counts },
    ...(viewer ?? {}),
    ...(post.held ? { held: true } : {}),
    createdAt: post.createdAt.toISOString(),
  };
}
