import type { NotificationPreferences, PushPlatform, SoftAskRecord } from '../documents';
import { shouldAsk } from './soft-ask';

const softAskView = (ask: SoftAskRecord) =>
  Object.fromEntries(Object.entries(ask).flatMap(([field, at]) => (at ? [[field, at.toISOString()]] : [])));

export const preferencesView = (preferences: NotificationPreferences, now = new Date()) => ({
  ...preferences,
  softAsk: Object.fromEntries(
    Object.entries(preferences.softAsk).map(([platform, ask]) => [platform, softAskView(ask)]),
  ) as Record<PushPlatform, { shownAt?: string; declinedAt?: string; acceptedAt?: string }>,
  shouldAsk: shouldAsk(preferences, now),
  updatedAt: preferences.updatedAt?.toISOString() ?? null,
});
