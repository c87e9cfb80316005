import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';
import type { Refused } from './service';

const DUPLICATE = {
  name: 'This spot already has a stay with this name and type.',
  bookingUrl: 'This spot already has a stay with this bookingUrl.',
};

/** A stays-service refusal as the HTTP error a route answers with. */
export function refusal(refused: Refused): ApiError {
  switch (refused.outcome) {
    case 'spot-not-found':
      return new ApiError(404, 'Spot not found.');
    case 'not-found':
      return new ApiError(404, 'Stay not found on this spot.');
    case 'not-yours':
      return new ApiError(403, "Only the stay's creator, the spot's creator or an admin may change this stay.");
    case 'spot-full':
      return new ApiError(409, `This spot already has ${LIMITS.stay.perSpotMax} stays, the most a spot can hold.`);
    case 'duplicate':
      return new ApiError(409, DUPLICATE[refused.field], {
        details: [{ field: refused.field, message: 'already used by another stay of this spot' }],
      });
    case 'place-mismatch':
      return new ApiError(400, "The stay's place contradicts its spot's.", {
        details: refused.fields.map((field) => ({ field, message: `differs from the spot's ${field}` })),
      });
  }
}
