import type { Refusals } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { NEEDS_A_CRITERION } from './schema';

const MAX = LIMITS.eventNotifications.subscriptionsPerUser;

/** An event subscription refused: missing, without a criterion, naming no organizer, over the limit, or raced. */
export const SUBSCRIPTION_REFUSALS: Refusals<
  'not-found' | 'no-criterion' | 'unknown-organizer' | 'limit' | 'conflict'
> = {
  'not-found': { status: 404, message: 'Event subscription not found.' },
  'no-criterion': {
    status: 400,
    message: `${NEEDS_A_CRITERION}.`,
    details: [{ field: 'criteria', message: NEEDS_A_CRITERION }],
  },
  'unknown-organizer': {
    status: 400,
    message: 'organizerId names no known organizer.',
    details: [{ field: 'organizerId', message: 'names no known organizer' }],
  },
  limit: { status: 409, message: `You already hold ${MAX} event subscriptions, the most allowed; delete one first.` },
  conflict: { status: 409, message: 'The subscription changed meanwhile; try again.' },
};
