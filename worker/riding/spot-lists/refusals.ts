import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';

const REFUSALS = {
  'not-found': [404, 'Spot list not found.'],
  'spot-not-found': [404, 'Spot not found.'],
  'list-full': [409, `A spot list holds at most ${LIMITS.spotsPerListMax} spots.`],
} as const;

/** A spot-lists outcome that is not a list, as the HTTP error a route answers with. */
export function refusal(outcome: keyof typeof REFUSALS): ApiError {
  const [status, message] = REFUSALS[outcome];
  return new ApiError(status, message);
}
