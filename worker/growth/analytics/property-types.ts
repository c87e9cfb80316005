import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';

// The only kinds of value an analytics property may hold (the interface spec, "Analytics event envelope":
// IDs and bounded enums, never names, email, free text, prompts, exact location or media).

/** A stored document's id: 24 lowercase hex digits. */
export const objectId = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex id');

/** A non-negative whole number below a bound, for counts (attempts, tokens, characters). */
export const count = z.number().int().min(0).max(LIMITS.analytics.countMax);

/** A duration in milliseconds. */
export const durationMs = z.number().int().min(0).max(LIMITS.analytics.durationMsMax);

/** A semantic version (`1.10.0`, `2.0.0-beta.1`): the version prompts and updates name. */
export const semver = z
  .string()
  .max(LIMITS.analytics.versionMax)
  .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/, 'must be a semantic version');

/** A model or provider identifier (`gpt-4o-mini`): no spaces or `@`, so never a sentence or an email. */
export const identifier = z
  .string()
  .max(LIMITS.analytics.identifierMax)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, 'must be an identifier');

/** An experiment or variant key (docs/experiments.md): lower snake case, so never a sentence. */
export const experimentKey = z
  .string()
  .max(LIMITS.experiments.keyMax)
  .regex(/^[a-z][a-z0-9_]*$/, 'must be a lower snake case key');

/** Where in the app a view started. */
export const ENTRY_POINTS = [
  'home',
  'list',
  'search',
  'map',
  'feed',
  'trickipedia',
  'notification',
  'deep_link',
  'companion',
  'other',
] as const;
export const entryPoint = z.enum(ENTRY_POINTS);

export const SIGN_UP_METHODS = ['password', 'google', 'apple'] as const;
export const COMPANION_SURFACES = ['dm', 'bot', 'voice'] as const;
export const COMPANION_STAGES = ['stranger', 'acquaintance', 'friend', 'close_friend', 'bestie'] as const;
export const TRICK_STATUSES = ['todo', 'learning', 'landed'] as const;
/** The push categories (worker/notifications/documents.ts): a client reports the category of the push it received or opened. */
export const NOTIFICATION_CATEGORIES = ['messages', 'reminders', 'events'] as const;
export const SHARE_CHANNELS = ['system_sheet', 'copy_link', 'message', 'other'] as const;
export const CALENDARS = ['ics', 'google', 'apple', 'outlook', 'other'] as const;
export const MAP_APPS = ['apple_maps', 'google_maps', 'waze', 'other'] as const;
export const PLANS = ['free', 'premium'] as const;
export const BILLING_INTERVALS = ['month', 'year'] as const;
export const PAYWALL_TRIGGERS = ['spot_list_limit', 'ai_allowance', 'settings', 'onboarding', 'other'] as const;
