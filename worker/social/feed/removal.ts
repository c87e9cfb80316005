import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Caller } from '../../platform/tokens/service';
import { removePostComments } from '../comments/service';
import { deletePostMedia, hidePostMedia } from '../media/service';
import { removePostReactions } from '../reactions/service';
import { removePostSaves } from '../saved-posts/service';
import { deletePost } from './service';

/**
 * Deletes a post and what hangs on it. The post goes first: a reaction, comment or save
 * written after that finds no post and undoes itself (worker/social/reactions/service.ts and siblings).
 * Its uploaded media go too, files included; when moderation removes it they are hidden instead (kept for appeals).
 */
export async function removePost(store: Store, postId: ObjectId, caller: Caller, media: R2Bucket | 'hide') {
  const outcome = await deletePost(store, postId, caller);
  if (outcome === 'deleted') {
    await Promise.all([
      removePostReactions(store, postId),
      removePostComments(store, postId),
      removePostSaves(store, postId),
      media === 'hide' ? hidePostMedia(store, postId) : deletePostMedia(store, media, postId),
    ]);
  }
  return outcome;
}
