import type { Refusals } from '../../platform/http/refusals';

/** A token or web subscription to remove that the caller does not hold, as the routes answer it. */
export const PUSH_TOKEN_REFUSALS: Refusals<'not-found'> = {
  'not-found': { status: 404, message: 'No such push token of yours.' },
};
