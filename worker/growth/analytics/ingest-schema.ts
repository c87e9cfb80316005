import { z } from '@hono/zod-openapi';
import { CLIENT_PLATFORMS, FIRST_TOUCHES, QUARANTINE_REASONS } from './envelope';
import { ANALYTICS_EVENT_NAMES } from './taxonomy';

// The batch is checked envelope by envelope in worker/growth/analytics/classify.ts, so one bad event is
// quarantined with its reason instead of refusing the batch; this schema only documents the shape.
const Envelope = z.record(z.string(), z.unknown()).openapi('AnalyticsEnvelope', {
  description:
    'One event (docs/analytics.md): eventId (UUID), name (one of the taxonomy), occurredAt (ISO 8601), ' +
    `schemaVersion (1), properties (IDs and bounded enums of the name's schema), anonymousId, userId (the signed-in caller's, or absent), ` +
    `sessionId (UUID), platform (${CLIENT_PLATFORMS.join(', ')}), appVersion (semantic version), buildNumber, ` +
    `source {firstTouch (${FIRST_TOUCHES.join(', ')}), utmSource, landingPath}. ` +
    `Names: ${ANALYTICS_EVENT_NAMES.join(', ')}. ` +
    "Other envelope fields are ignored (never stored), so a newer app's events reach an older server; a property the name does not define is still quarantined (unknown-property).",
});

export const EventBatch = z
  .object({
    events: z.array(Envelope).min(1).describe('up to 100 envelopes; more is a 413 and nothing is stored'),
  })
  .openapi({ description: 'Fields besides events are ignored.' });

const Result = z
  .object({
    index: z.number().int().describe("the envelope's place in the batch"),
    eventId: z.string().nullable().describe('null when the envelope carried no well-formed UUID'),
    status: z.enum(['accepted', 'duplicate', 'quarantined']),
    reason: z.enum(QUARANTINE_REASONS).optional().describe('why, for a quarantined event'),
  })
  .openapi('AnalyticsEventResult');

export const IngestAnswer = z
  .object({
    results: z.array(Result).describe('one per envelope, in batch order'),
    accepted: z.number().int(),
    duplicates: z.number().int(),
    quarantined: z.number().int(),
  })
  .openapi('AnalyticsIngestResult');
