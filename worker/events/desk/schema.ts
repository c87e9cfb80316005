import { z } from '@hono/zod-openapi';
import { IdString, pathId } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { APPROVAL_STATUSES } from '../catalog/vocabulary';
import { eventFields, oneFormEach, optionalEventDetails, SubmittedEvent } from '../submissions/schema';

// The admin desk's shapes.

const when = z.string().nullable().describe('ISO 8601 UTC; null when absent');

export const DeskEvent = SubmittedEvent.extend({
  submittedBy: z
    .string()
    .nullable()
    .describe('the submitting rider; null for source listings and after they delete their account'),
  submittedAt: when,
  review: z
    .object({
      decision: z.enum(['approve', 'reject']),
      reason: z.string().nullable(),
      by: z.string().nullable(),
      at: when,
    })
    .nullable()
    .describe('the last review decision'),
  mergedInto: z.string().nullable().describe('set when merged away: its id and slug resolve to this event'),
}).openapi('DeskEvent');

export const DeskEventParam = z.object({ id: pathId('id') });

const deskLimit = z.coerce.number().int().min(1).max(LIMITS.events.deskPageMax).default(LIMITS.pageSizeDefault);

export const QueueQuery = PageQuery.extend({
  approvalStatus: z
    .enum(APPROVAL_STATUSES)
    .default('pending')
    .describe('pending (the review queue), approved or rejected'),
  limit: deskLimit,
});
export const QueuePage = pageOf(DeskEvent).openapi('DeskEventPage');

export const DuplicatesQuery = PageQuery.extend({ limit: deskLimit });
export const DuplicatePage = pageOf(
  z.object({
    event: DeskEvent,
    candidates: z.array(DeskEvent).describe('the stored events it looks like, not merged away'),
  }),
).openapi('DeskDuplicatePage');

export const StaleQuery = z.object({ limit: deskLimit });
export const StaleList = z
  .object({
    items: z.array(DeskEvent).describe('longest past staleAfter first'),
    totalCount: z.number().int().describe('every stale event, beyond this page too'),
  })
  .openapi('DeskStaleList');

export const ReviewBody = z
  .object({
    decision: z
      .enum(['approve', 'reject'])
      .describe('approve publishes the event; reject takes it out of (or keeps it out of) public view'),
    reason: z.string().trim().min(1).max(1000).optional(),
  })
  .strict()
  .openapi('EventReview');

export const MergeBody = z
  .object({ intoId: IdString.describe('the surviving event') })
  .strict()
  .openapi('EventMerge');

export const MergeResult = z
  .object({
    event: DeskEvent.describe('the surviving event after the merge'),
    moved: z.object({
      sourceRefs: z.number().int().describe('source listings the survivor did not hold yet'),
      saves: z.number().int().describe('saves moved; a rider who had saved both keeps one'),
      relationships: z.number().int().describe("relationships moved; a rider's relationship to the survivor wins"),
    }),
  })
  .openapi('EventMergeResult');

export const EditBody = z
  .object({
    title: eventFields.title.optional(),
    description: eventFields.description.optional(),
    sports: eventFields.sports.optional(),
    disciplines: eventFields.disciplines.optional(),
    eventKinds: eventFields.eventKinds.optional(),
    intents: eventFields.intents.optional(),
    level: eventFields.level.optional(),
    startLocal: eventFields.startLocal.optional(),
    endLocal: eventFields.endLocal.optional(),
    startAt: eventFields.startAt.optional().describe('the start as an instant with an offset; not with startLocal'),
    endAt: eventFields.endAt.optional().describe('the end as an instant with an offset; not with endLocal'),
    timezone: eventFields.timezone
      .optional()
      .describe(
        'IANA zone; startLocal/endLocal and schedule local times are read in it (else in the stored zone); alone it changes the zone, not the instants',
      ),
    timeTba: eventFields.timeTba.optional(),
    status: z
      .enum(['scheduled', 'cancelled'])
      .optional()
      .describe('cancelled cancels the event (a material change riders hear of); scheduled takes a cancellation back'),
    isOnline: eventFields.isOnline.optional(),
    schedule: eventFields.schedule.optional(),
    venue: eventFields.venue
      .optional()
      .describe('the given venue fields replace the stored ones; lat and lng together, or location (not both)'),
    ...optionalEventDetails,
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'names no field to change' })
  .superRefine(oneFormEach)
  .openapi('EventEdit');

export type EditInput = z.infer<typeof EditBody>;

export const EventSourceStatus = z
  .object({
    name: z.string(),
    setting: z.string().describe('the setting holding its upstream address'),
    configured: z.boolean().describe('whether that setting is set here'),
    why: z.string(),
    lastSuccessAt: when,
    lastFailureAt: when,
    lastError: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    lastCounts: z
      .record(z.string(), z.number())
      .nullable()
      .describe('fetched, inserted, updated, unchanged, duplicates, failed of its last successful run'),
    totals: z.record(z.string(), z.number()),
  })
  .openapi('EventSourceStatus');

export const EventSourceList = z.object({ sources: z.array(EventSourceStatus) }).openapi('EventSourceList');
