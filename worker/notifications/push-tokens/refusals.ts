import type { Refusals } from '../../platform/http/refusals';

/** A token or web subscription to remove that the caller does not hold, or a stored one that cannot be read. */
export const PUSH_TOKEN_REFUSALS: Refusals<'not-found' | 'unreadable'> = {
  'not-found': { status: 404, message: 'No such push token of yours.' },
  // Only a token whose own stored _id names nothing (older code) is unreadable once registered again.
  unreadable: {
    status: 409,
    message: 'This push token is stored in a form that cannot be read; remove it and register it again.',
  },
};
