import type { Refusals } from '../../platform/http/refusals';
import { TRICK_REFUSALS } from '../tricklists/refusals';

/** A reminders-service outcome that is not a reminder, and the trick list a cadence is set on, as the routes answer. */
export const REMINDER_REFUSALS: Refusals<'list-not-found' | 'not-found' | 'not-pending'> = {
  'list-not-found': TRICK_REFUSALS['list-not-found'],
  'not-found': { status: 404, message: 'Scheduled notification not found.' },
  'not-pending': { status: 409, message: 'This reminder was cancelled or failed; it cannot be sent.' },
};
