import type { Refusals } from '../../platform/http/refusals';

/** A follow refused: no such rider (or a block between you, which reads the same), or the caller themselves. */
export const FOLLOW_REFUSALS: Refusals<'not-found' | 'self'> = {
  'not-found': { status: 404, message: 'User not found.' },
  self: { status: 400, message: 'You cannot follow yourself.', details: [{ field: 'id', message: 'is you' }] },
};
