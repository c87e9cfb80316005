import type { NotificationPreferences, PushTokenDoc, StoredNotificationPreferences } from '../documents';

/** Where quiet hours are evaluated before the user or any of their devices has named a zone. */
export const FALLBACK_TIME_ZONE = 'UTC';

/** The interface spec's defaults ("Notification preferences"), all but the time zone, which is the user's own. */
const DEFAULTS = {
  messages: { push: true, inApp: true, email: false },
  reminders: { push: true, inApp: false, email: false },
  /** Beside the spec's two: changes to events the rider follows and subscription digests. */
  events: { push: true, inApp: true, email: false },
  quietHours: { start: '21:00', end: '09:00' },
  osPermission: { ios: 'unknown', android: 'unknown', web: 'unknown' },
} as const;

/**
 * The user's time zone when they set none: the zone their most recently seen device reported
 * with its push token (POST /api/push-tokens), else UTC.
 */
export function deviceTimeZone(tokens: Pick<PushTokenDoc, 'timezone' | 'lastSeenAt'>[]): string {
  const newest = tokens
    .filter((token) => token.timezone)
    .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())[0];
  return newest?.timezone ?? FALLBACK_TIME_ZONE;
}

/** The stored partial preferences over the defaults: every field present. */
export function withDefaults(
  stored: StoredNotificationPreferences | undefined,
  userTimeZone: string,
): NotificationPreferences {
  return {
    messages: { ...DEFAULTS.messages, ...stored?.messages },
    reminders: { ...DEFAULTS.reminders, ...stored?.reminders },
    events: { ...DEFAULTS.events, ...stored?.events },
    quietHours: { ...DEFAULTS.quietHours, timezone: userTimeZone, ...stored?.quietHours },
    osPermission: { ...DEFAULTS.osPermission, ...stored?.osPermission },
    softAsk: {
      ios: { ...stored?.softAsk?.ios },
      android: { ...stored?.softAsk?.android },
      web: { ...stored?.softAsk?.web },
    },
    updatedAt: stored?.updatedAt ?? null,
  };
}
