import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import { tokenCaller } from '../../platform/tokens/service';
import { ingestEvents } from './ingest';
import { EventBatch, IngestAnswer } from './ingest-schema';

const ingest = defineRoute({
  method: 'post',
  path: '/events',
  tags: ['analytics'],
  summary: 'Send a batch of analytics events (sign-in optional)',
  description:
    "Each envelope is accepted, a duplicate of an eventId already stored, or quarantined with the reason. With a valid x-auth-token an event's userId must be the caller's; without one (or with a bad one) events carry only anonymousId. Append-only. See docs/analytics.md.",
  security: [{}, { 'x-auth-token': [] }],
  request: jsonBody(EventBatch),
  responses: { 200: jsonResponse(IngestAnswer, 'What happened to each envelope') },
});

/** Product analytics ingestion; mounted under /api/analytics. */
export const analyticsIngestRoutes = createRouter<AppEnv>().openapi(ingest, async (c) => {
  const { events } = c.req.valid('json');
  if (events.length > LIMITS.analytics.batchMax) {
    throw new ApiError(413, `Too many events: a batch holds at most ${LIMITS.analytics.batchMax}; none was stored.`);
  }
  const caller = await tokenCaller(c.env, c.var.db, c.req.header('x-auth-token'));
  const results = await ingestEvents(c.var.db, caller?.userId ?? null, events);
  const counts = { accepted: 0, duplicate: 0, quarantined: 0 };
  for (const result of results) counts[result.status] += 1;
  return c.json(
    { results, accepted: counts.accepted, duplicates: counts.duplicate, quarantined: counts.quarantined },
    200,
  );
});
