import { ApiError } from '../http/errors';

const ACCOUNT_NOT_FOUND = 'Account not found.';
const EMAIL_TAKEN = 'An account with this email already exists.';

/** A users-service outcome that is not an account, as the HTTP error a route answers with. */
export function refusal(outcome: 'not-found' | 'email-taken'): ApiError {
  return outcome === 'not-found' ? new ApiError(404, ACCOUNT_NOT_FOUND) : new ApiError(409, EMAIL_TAKEN);
}
