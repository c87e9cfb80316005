import type { Refusals } from '../../platform/http/refusals';
import type { PlaceConflict } from './service';

/** A spots-service outcome that is not a spot, as the routes answer it; the spot's other resources share its 404. */
export const SPOT_REFUSALS: Refusals<'not-found' | 'not-yours' | PlaceConflict> = {
  'not-found': { status: 404, message: 'Spot not found.' },
  'not-yours': { status: 403, message: 'Only the creator of this spot or an admin can change it.' },
  'place-conflict': ({ fields }) => ({
    status: 400,
    message: "The spot's new place contradicts its stays.",
    details: fields.map((field) => ({ field, message: 'contradicts a stay of this spot' })),
  }),
};
