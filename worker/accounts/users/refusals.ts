import type { Refusals } from '../../platform/http/refusals';

/** A users-service outcome that is not an account, as the routes answer it. */
export const ACCOUNT_REFUSALS: Refusals<'not-found' | 'email-taken' | 'apple-id-taken' | 'changed-meanwhile'> = {
  'not-found': { status: 404, message: 'Account not found.' },
  'email-taken': { status: 409, message: 'An account with this email already exists.' },
  'apple-id-taken': { status: 409, message: 'Another account is already linked to this Apple ID.' },
  'changed-meanwhile': { status: 409, message: 'The email changed meanwhile; try again.' },
};
