import { LIMITS } from '../../platform/limits';
import type { NotificationPreferences, PushPlatform } from '../documents';
import { PUSH_PLATFORMS } from '../documents';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The interface spec's soft-ask rule for one platform: the in-app ask comes before the OS prompt, so it is
 * due while the ask was never accepted and the OS has not settled the permission either way (`granted` or
 * `denied`); after an in-app decline it is repeated no sooner than LIMITS.push.softAskRepeatDays later.
 */
export function shouldAskOn(preferences: NotificationPreferences, platform: PushPlatform, now: Date): boolean {
  const ask = preferences.softAsk[platform];
  const permission = preferences.osPermission[platform];
  if (ask.acceptedAt || permission === 'granted' || permission === 'denied') return false;
  return !ask.declinedAt || now.getTime() - ask.declinedAt.getTime() >= LIMITS.push.softAskRepeatDays * DAY_MS;
}

export const shouldAsk = (preferences: NotificationPreferences, now: Date) =>
  Object.fromEntries(PUSH_PLATFORMS.map((platform) => [platform, shouldAskOn(preferences, platform, now)])) as Record<
    PushPlatform,
    boolean
  >;
