import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { VALUE_DOMAINS } from './meaningful';

const L = LIMITS.analyticsDashboard;

const AsOf = z
  .string()
  .refine((text) => /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(text) && !Number.isNaN(Date.parse(text)), {
    message: 'must be an ISO 8601 date or date-time',
  })
  .transform((text) => new Date(text))
  .optional()
  .describe('end of the newest window (exclusive); default now. A bare date is its midnight UTC');

const Weeks = (what: string) => z.coerce.number().int().min(1).max(L.weeksMax).default(L.weeksDefault).describe(what);

export const WprQuery = z.object({ weeks: Weeks('how many rolling seven-day windows, newest last'), asOf: AsOf });
export const RetentionQuery = z.object({
  weeks: Weeks('how many weekly signup cohorts (Monday to Monday, UTC)'),
  asOf: AsOf,
});
export const QualityQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(L.qualityDaysMax)
    .default(L.qualityDaysDefault)
    .describe('days of received events covered, ending at asOf'),
  asOf: AsOf,
});

const DomainFigures = z.object({
  riders: z.number().int().describe('riders with at least one action of this domain'),
  actions: z.number().int(),
});

const WprWindow = z.object({
  from: z.string().describe('start, inclusive (ISO 8601)'),
  to: z.string().describe('end, exclusive'),
  riders: z.number().int().describe('distinct riders with at least one meaningful action'),
  actions: z.number().int().describe('their meaningful actions'),
  depth: z.number().describe('actions per rider; 0 when there are no riders'),
  domains: z.object(Object.fromEntries(VALUE_DOMAINS.map((domain) => [domain, DomainFigures]))),
  excluded: z.number().int().describe('excluded accounts (admin, bot, analyticsExcluded) with meaningful actions here'),
});

export const WprReport = z.object({ asOf: z.string(), windows: z.array(WprWindow) }).openapi('WeeklyProgressingRiders');

const RetentionWindow = z
  .object({
    riders: z.number().int().describe('cohort riders with a meaningful action in the window'),
    share: z.number().describe('riders / cohort size; 0 for an empty cohort'),
  })
  .nullable()
  .describe('null until the window has fully elapsed for every rider the cohort week can hold');

export const RetentionReport = z
  .object({
    asOf: z.string(),
    cohorts: z.array(
      z.object({
        from: z.string().describe('cohort week start (Monday 00:00 UTC), inclusive'),
        to: z.string().describe('cohort week end, exclusive'),
        riders: z.number().int().describe('riders who signed up in the week, excluded accounts left out'),
        excluded: z.number().int().describe('excluded accounts that signed up in the week'),
        w1: RetentionWindow,
        w2: RetentionWindow,
        w3: RetentionWindow,
        w4: RetentionWindow,
      }),
    ),
  })
  .openapi('SignupRetention');

export const QualityReport = z
  .object({
    from: z.string().describe('received from, inclusive'),
    to: z.string().describe('received until, exclusive'),
    events: z.number().int().describe('events sent with a valid token, platform ios or android'),
    complete: z
      .number()
      .int()
      .describe('of those, events carrying appVersion, buildNumber, sessionId, anonymousId and userId'),
    share: z.number().nullable().describe('complete / events; null when there are no events'),
    target: z.number().describe('the target share'),
    meetsTarget: z.boolean().nullable().describe('null when there are no events'),
    missing: z
      .object({
        appVersion: z.number().int(),
        buildNumber: z.number().int(),
        sessionId: z.number().int(),
        anonymousId: z.number().int(),
        userId: z.number().int(),
      })
      .describe('events lacking each field (platform is required: an event without it is quarantined)'),
    excluded: z.number().int().describe('excluded accounts whose events were left out'),
  })
  .openapi('AnalyticsDataQuality');
