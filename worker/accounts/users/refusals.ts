import { ApiError } from '../../platform/http/errors';

const ACCOUNT_NOT_FOUND = 'Account not found.';
const EMAIL_TAKEN = 'An account with this email already exists.';
const APPLE_ID_TAKEN = 'Another account is already linked to this Apple ID.';

/** A users-service outcome that is not an account, as the HTTP error a route answers with. */
export function refusal(outcome: 'not-found' | 'email-taken' | 'apple-id-taken'): ApiError {
  if (outcome === 'not-found') return new ApiError(404, ACCOUNT_NOT_FOUND);
  return new ApiError(409, outcome === 'email-taken' ? EMAIL_TAKEN : APPLE_ID_TAKEN);
}
