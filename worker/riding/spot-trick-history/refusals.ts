import { invalidBodyField, type Refusals } from '../../platform/http/refusals';
import { SPOT_REFUSALS } from '../spots/refusals';

/** A landing refused: its spot is gone, it is dated in the future, or it names no trickipedia entry. */
export const LANDING_REFUSALS: Refusals<'spot-not-found' | 'landed-in-future' | 'trickipedia-not-found'> = {
  'spot-not-found': SPOT_REFUSALS['not-found'],
  'landed-in-future': invalidBodyField('landedAt', 'must not be in the future'),
  'trickipedia-not-found': invalidBodyField('trickipediaId', 'no encyclopedia entry has this id'),
};
