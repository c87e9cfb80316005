import type { Refusals } from '../../platform/http/refusals';
import { SPOT_REFUSALS } from '../spots/refusals';

/** A review refused: its spot is gone, or the review is missing or someone else's. */
export const REVIEW_REFUSALS: Refusals<'spot-not-found' | 'not-found' | 'not-yours'> = {
  'spot-not-found': SPOT_REFUSALS['not-found'],
  'not-found': { status: 404, message: 'Review not found.' },
  'not-yours': { status: 403, message: 'You can delete only your own reviews.' },
};
