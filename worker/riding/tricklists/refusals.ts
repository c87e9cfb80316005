import { invalidBodyField, type Refusals } from '../../platform/http/refusals';

/** The refusals of trick lists and the tricks in them, named as the tricks service names its outcomes. */
export const TRICK_REFUSALS: Refusals<'list-not-found' | 'not-found' | 'trickipedia-not-found'> = {
  // Another rider's list answers exactly as a missing one (the product decisions: private ids are not probed).
  'list-not-found': { status: 404, message: 'Trick list not found.' },
  'not-found': { status: 404, message: 'Trick not found.' },
  'trickipedia-not-found': invalidBodyField('trickipediaId', 'does not match any trickipedia entry'),
};
