import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { semver } from './property-types';

// The analytics event envelope (the interface spec, "Analytics event envelope"), less `name`,
// `schemaVersion` and `properties`, which worker/growth/analytics/classify.ts checks against the taxonomy.

/** Why an event went to quarantine instead of analytics_events (docs/analytics.md, "Results"). */
export const QUARANTINE_REASONS = [
  'invalid-envelope',
  'unknown-schema-version',
  'unknown-name',
  'unknown-property',
  'invalid-property',
  'user-mismatch',
  'unauthenticated-user',
  'missing-identity',
  'implausible-time',
  'unknown-experiment',
] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

export const CLIENT_PLATFORMS = ['ios', 'android', 'web'] as const;
export const FIRST_TOUCHES = ['google', 'instagram', 'direct', 'referral', 'other'] as const;

/** An installation-scoped id: letters, digits, `-` and `_` only, so never an email or a sentence. */
const installationId = z
  .string()
  .max(LIMITS.analytics.envelopeFieldMax)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an id');

/** The envelope's fields; any other field is ignored (never stored), so a newer app's events reach an older server. */
export const EnvelopeFields = z.object({
  eventId: z.uuid(),
  name: z.string(),
  occurredAt: z.iso.datetime({ offset: true }),
  anonymousId: installationId.nullable().optional(),
  userId: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'must be a 24-hex id')
    .nullable()
    .optional(),
  sessionId: z.uuid().optional(),
  platform: z.enum(CLIENT_PLATFORMS).optional(),
  appVersion: semver.optional(),
  buildNumber: z.number().int().min(0).max(LIMITS.analytics.countMax).optional(),
  schemaVersion: z.number().int(),
  source: z
    .object({
      firstTouch: z.enum(FIRST_TOUCHES),
      utmSource: installationId.nullable(),
      // A path only: a query string may carry an email or a token.
      landingPath: z
        .string()
        .max(LIMITS.analytics.envelopeFieldMax)
        .regex(/^\/[A-Za-z0-9/_.-]*$/, 'must be a path without query'),
    })
    .optional(),
  properties: z.record(z.string(), z.unknown()).default({}),
});
export type EnvelopeFields = z.infer<typeof EnvelopeFields>;
