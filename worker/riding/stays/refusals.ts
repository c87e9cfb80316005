import type { Refusals } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { SPOT_REFUSALS } from '../spots/refusals';
import type { Refused } from './service';

const DUPLICATE = {
  name: 'This spot already has a stay with this name and type.',
  bookingUrl: 'This spot already has a stay with this bookingUrl.',
};

/** A stays-service refusal as the routes answer it. */
export const STAY_REFUSALS: Refusals<Refused> = {
  'spot-not-found': SPOT_REFUSALS['not-found'],
  'not-found': { status: 404, message: 'Stay not found on this spot.' },
  'not-yours': {
    status: 403,
    message: "Only the stay's creator, the spot's creator or an admin may change this stay.",
  },
  'spot-full': {
    status: 409,
    message: `This spot already has ${LIMITS.stay.perSpotMax} stays, the most a spot can hold.`,
  },
  duplicate: ({ field }) => ({
    status: 409,
    message: DUPLICATE[field],
    details: [{ field, message: 'already used by another stay of this spot' }],
  }),
  'place-mismatch': ({ fields }) => ({
    status: 400,
    message: "The stay's place contradicts its spot's.",
    details: fields.map((field) => ({ field, message: `differs from the spot's ${field}` })),
  }),
};
