import type { Refusals } from '../../platform/http/refusals';

/** The refusals of trick lists and the tricks in them, named as the tricks service names its outcomes. */
export const TRICK_REFUSALS: Refusals<'list-not-found' | 'not-found' | 'trickipedia-not-found'> = {
  // Another rider's list answers exactly as a missing one (the product decisions: private ids are not probed).
  'list-not-found': { status: 404, message: 'Trick list not found.' },
  'not-found': { status: 404, message: 'Trick not found.' },
  // A trickipediaId naming no entry: a validation failure of that field, like zod's.
  'trickipedia-not-found': {
    status: 400,
    message: 'Invalid request body.',
    details: [{ field: 'trickipediaId', message: 'does not match any trickipedia entry' }],
  },
};
