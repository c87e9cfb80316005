import type { Refusals } from '../../platform/http/refusals';

/** An event that is missing, unpublished and not the caller's, or (for its calendar entry) without a date. */
export const EVENT_REFUSALS: Refusals<'not-found' | 'undated'> = {
  'not-found': { status: 404, message: 'Event not found.' },
  undated: { status: 404, message: 'This event has no date yet, so it has no calendar entry.' },
};
