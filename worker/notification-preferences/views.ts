import type { NotificationPreferences } from '../db/documents';

export const preferencesView = (preferences: NotificationPreferences) => ({
  ...preferences,
  updatedAt: preferences.updatedAt?.toISOString() ?? null,
});
