import { ApiError } from '../../platform/http/errors';

/** A trickipedia-service outcome that is not an entry, as the HTTP error a route answers with. */
export function refusal(outcome: 'not-found' | 'unknown-category' | 'slug-taken'): ApiError {
  if (outcome === 'not-found') return new ApiError(404, 'Trickipedia entry not found.');
  if (outcome === 'slug-taken') return new ApiError(409, 'A trickipedia entry with this slug already exists.');
  return new ApiError(400, 'Invalid request body.', {
    details: [{ field: 'category', message: 'no category has this slug' }],
  });
}
