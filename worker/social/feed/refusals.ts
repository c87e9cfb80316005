import { invalidBodyField, type Refusals } from '../../platform/http/refusals';

/** A post refused: missing or hidden from the reader, someone else's, or naming a spot that does not exist. */
export const POST_REFUSALS: Refusals<'not-found' | 'not-yours' | 'unknown-spot'> = {
  'not-found': { status: 404, message: 'Post not found.' },
  'not-yours': { status: 403, message: 'You can delete only your own posts.' },
  'unknown-spot': invalidBodyField('spotId', 'no such spot'),
};
