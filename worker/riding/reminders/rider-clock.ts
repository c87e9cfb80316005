import type { ObjectId } from 'mongodb';
import { FALLBACK_TIME_ZONE } from '../../notifications/preferences/defaults';
import { isKnownTimeZone } from '../../notifications/preferences/quiet-hours';
import { findPreferences } from '../../notifications/preferences/service';
import type { Store } from '../../platform/db/store';
import type { RiderClock } from './plan';

/**
 * The rider's zone and quiet hours for planning, as the sender evaluates them (worker/notifications/push/deliver.ts): the
 * quiet-hours zone they set, else their newest device's zone, else UTC; the spec's default hours until set.
 */
export async function riderClock(store: Store, userId: ObjectId): Promise<RiderClock> {
  const preferences = await findPreferences(store, userId);
  if (preferences === 'not-found')
    return { timeZone: FALLBACK_TIME_ZONE, quietHours: { start: '21:00', end: '09:00' } };
  const { start, end, timezone } = preferences.quietHours;
  return { timeZone: isKnownTimeZone(timezone) ? timezone : FALLBACK_TIME_ZONE, quietHours: { start, end } };
}
