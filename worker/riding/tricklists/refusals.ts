import { ApiError } from '../../platform/http/errors';

// Another rider's list answers exactly as a missing one (the product decisions: private ids are not probed).
export const listNotFound = () => new ApiError(404, 'Trick list not found.');
export const trickNotFound = () => new ApiError(404, 'Trick not found.');

/** A trickipediaId naming no entry: a validation failure of that field, like zod's. */
export const unknownTrickipediaEntry = () =>
  new ApiError(400, 'Invalid request body.', {
    details: [{ field: 'trickipediaId', message: 'does not match any trickipedia entry' }],
  });
