import type { Refusals } from '../../platform/http/refusals';

/** A suspension outcome that is not one, as the routes answer it. */
export const SUSPENSION_REFUSALS: Refusals<'not-found' | 'admin' | 'self' | 'not-suspended' | 'ended'> = {
  'not-found': { status: 404, message: 'Account not found.' },
  admin: { status: 409, message: 'An admin cannot be suspended: take the admin role away first.' },
  self: { status: 409, message: 'You cannot suspend your own account.' },
  'not-suspended': { status: 409, message: 'This rider is not suspended.' },
  ended: {
    status: 400,
    message: 'until must be in the future; send null (or leave it out) to suspend until lifted.',
    details: [{ field: 'until', message: 'must be in the future' }],
  },
};
