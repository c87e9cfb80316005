import type { Refusals } from '../../platform/http/refusals';
import { POST_REFUSALS } from '../feed/refusals';

/** A comment refused: its post is gone or hidden, or the comment is missing or neither the caller's nor on their post. */
export const COMMENT_REFUSALS: Refusals<'post-not-found' | 'not-found' | 'not-yours'> = {
  'post-not-found': POST_REFUSALS['not-found'],
  'not-found': { status: 404, message: 'Comment not found.' },
  'not-yours': { status: 403, message: 'You can delete only your own comments or comments on your posts.' },
};
