import type { z } from '@hono/zod-openapi';
import type { EventDoc, EventSourceDoc } from '../documents';
import type { EventSource } from '../ingestion/sources';
import { submittedEventView } from '../submissions/views';
import type { DeskEvent, EventSourceStatus } from './schema';

const iso = (value: unknown) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : null);

export function deskEventView(doc: EventDoc): z.infer<typeof DeskEvent> {
  const review = doc.review;
  return {
    ...submittedEventView(doc),
    submittedBy: doc.submittedBy?.toHexString() ?? null,
    submittedAt: iso(doc.submittedAt),
    review: review
      ? {
          decision: review.decision,
          reason: review.reason ?? null,
          by: review.by?.toHexString() ?? null,
          at: iso(review.at),
        }
      : null,
    mergedInto: doc.mergedInto?.toHexString() ?? null,
  };
}

/** A known source and its stored health; a source that never ran has no row yet. */
export function sourceStatusView(
  source: EventSource,
  configured: boolean,
  row: EventSourceDoc | undefined,
): z.infer<typeof EventSourceStatus> {
  return {
    name: source.name,
    setting: source.setting,
    configured,
    why: source.why,
    lastSuccessAt: iso(row?.lastSuccessAt),
    lastFailureAt: iso(row?.lastFailureAt),
    lastError: row?.lastError ?? null,
    consecutiveFailures: row?.consecutiveFailures ?? 0,
    lastCounts: row?.lastCounts ?? null,
    totals: row?.totals ?? {},
  };
}
