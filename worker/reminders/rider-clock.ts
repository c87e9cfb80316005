import type { ObjectId } from 'mongodb';
import type { Store } from '../db/store';
import { isKnownTimeZone } from './local-time';
import type { RiderClock } from './plan';

/** The interface spec's default quiet hours, used until the rider sets their own. */
const DEFAULT_QUIET_HOURS = { start: '21:00', end: '09:00' };

interface StoredQuietHours {
  notificationPreferences?: { quietHours?: { start?: string; end?: string; timezone?: string } };
}

/**
 * The rider's zone and quiet hours for planning: the zone of their quiet-hours preference, else the zone
 * their newest push token reported, else UTC (docs/reminders.md).
 */
export async function riderClock(store: Store, userId: ObjectId): Promise<RiderClock> {
  const user = (await store.users.findOne(
    { _id: userId },
    { projection: { 'notificationPreferences.quietHours': 1 } },
  )) as StoredQuietHours | null;
  const quiet = user?.notificationPreferences?.quietHours;
  const quietHours = {
    start: quiet?.start ?? DEFAULT_QUIET_HOURS.start,
    end: quiet?.end ?? DEFAULT_QUIET_HOURS.end,
  };
  if (quiet?.timezone && isKnownTimeZone(quiet.timezone)) return { timeZone: quiet.timezone, quietHours };
  const token = (await store.pushTokens.findOne(
    { userId, timezone: { $type: 'string' } },
    { sort: { updatedAt: -1 }, projection: { timezone: 1 } },
  )) as { timezone?: string } | null;
  const timeZone = token?.timezone && isKnownTimeZone(token.timezone) ? token.timezone : 'UTC';
  return { timeZone, quietHours };
}
