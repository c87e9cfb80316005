import type { ObjectId } from 'mongodb';
import type { Refusals } from '../../platform/http/refusals';
import { EVENT_REFUSALS } from '../catalog/refusals';

/** A review or merge at the desk refused, as the desk routes answer it. */
export const DESK_REFUSALS: Refusals<
  'not-found' | 'same' | 'into-merged' | 'already-merged' | { outcome: 'merged-away'; into: ObjectId }
> = {
  'not-found': EVENT_REFUSALS['not-found'],
  'merged-away': ({ into }) => ({
    status: 409,
    message: `This event was merged into ${into.toHexString()}; review that one.`,
  }),
  same: {
    status: 400,
    message: 'An event cannot be merged into itself.',
    details: [{ field: 'intoId', message: 'is this event' }],
  },
  'into-merged': { status: 409, message: 'The surviving event was itself merged away.' },
  'already-merged': { status: 409, message: 'This event was already merged into another.' },
};
