import type { Refusals } from '../../../platform/http/refusals';

/** A queue item that cannot be decided: nothing was reported, another admin decided it, or it asks to remove a rider. */
export const QUEUE_REFUSALS: Refusals<'not-found' | 'resolved-already' | 'not-removable'> = {
  'not-found': { status: 404, message: 'No reports about this target.' },
  'resolved-already': { status: 409, message: 'This item is decided already; reload the queue.' },
  'not-removable': {
    status: 400,
    message: 'action: a rider is never removed through the queue; dismiss the reports, or suspend the rider.',
  },
};
