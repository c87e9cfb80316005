import type { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { Store } from '../../platform/db/store';
import { reactionsBy } from '../reactions/service';
import { savedAmong } from '../saved-posts/service';
import type { FeedPost } from '../stored-feed';
import { postView } from './views';

/** Posts as a reader sees them: authors as public users and, for a signed-in reader, their own reaction and saved state. */
export async function postViews(store: Store, posts: FeedPost[], readerId: ObjectId | null) {
  const ids = posts.map((post) => post._id);
  const [authors, reactions, saved] = await Promise.all([
    publicUsers(
      store,
      posts.flatMap((post) => post.userId ?? []),
    ),
    readerId ? reactionsBy(store, readerId, ids) : undefined,
    readerId ? savedAmong(store, readerId, ids) : undefined,
  ]);
  return posts.map((post) => {
    const id = post._id.toHexString();
    const reader = reactions && saved ? { myReaction: reactions.get(id) ?? null, saved: saved.has(id) } : undefined;
    // An author who no longer exists, or none stored, shows as a deleted rider's post does: no author.
    return postView(post, post.userId && authors.get(post.userId.toHexString()), reader);
  });
}
