import type { Refusals } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { SPOT_REFUSALS } from '../spots/refusals';

/** A spot-lists outcome that is not a list, as the routes answer it. */
export const SPOT_LIST_REFUSALS: Refusals<'not-found' | 'spot-not-found' | 'list-full'> = {
  'not-found': { status: 404, message: 'Spot list not found.' },
  'spot-not-found': SPOT_REFUSALS['not-found'],
  'list-full': { status: 409, message: `A spot list holds at most ${LIMITS.spotsPerListMax} spots.` },
};
