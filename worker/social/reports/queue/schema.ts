import { z } from '@hono/zod-openapi';
import { WITHHELD_REASONS } from '../../../moderation/documents';
import { IdString } from '../../../platform/http/ids';
import { LIMITS } from '../../../platform/limits';
import { DecisionReason, REPORT_REASONS, REPORT_TARGETS, ReportAction } from '../schema';

const Withheld = z
  .object({ reason: z.enum(WITHHELD_REASONS), at: z.string() })
  .describe('shown to its author only until an admin decides');

export const QueueItem = z
  .object({
    targetType: z.enum(REPORT_TARGETS),
    targetId: z.string(),
    postId: z.string().optional().describe('for a comment, the post it sits on'),
    reports: z.number().int().describe('open reports of the target, model reports included'),
    riders: z.number().int().describe('distinct riders who reported it (the order of the queue)'),
    reporterIds: z.array(z.string()),
    fromModel: z.boolean().describe('the moderation model filed a report on it'),
    categories: z.array(z.string()).describe("the model's flagged categories"),
    reasons: z.record(z.enum(REPORT_REASONS), z.number().int()).describe('reports per reason'),
    notes: z.array(z.string()),
    firstReportedAt: z.string(),
    lastReportedAt: z.string(),
    ageHours: z.number().describe('hours since the first open report'),
    content: z
      .object({
        text: z.string().optional(),
        media: z.array(z.object({ type: z.enum(['image', 'video']), url: z.string() })),
        name: z.string().optional().describe("a reported rider's name"),
      })
      .nullable()
      .describe('null when the target is gone'),
    authorId: z.string().nullable().describe('whom the content is by (the rider, for a rider item)'),
    withheld: Withheld.nullable(),
  })
  .openapi('ModerationQueueItem');

export const QueueFigures = z
  .object({
    openItems: z.number().int(),
    agedItems: z.number().int().describe(`open items first reported over ${LIMITS.report.agedItemHours} hours ago`),
    oldestOpenAt: z.string().nullable(),
    oldestAgeHours: z.number().nullable(),
    lastSevenDays: z.object({
      decided: z.number().int().describe('items decided in the last 7 days'),
      withinDay: z.number().int().describe(`of those, decided within ${LIMITS.report.answeredWithinHours} hours`),
      share: z.number().nullable().describe('withinDay / decided; null when none was decided'),
    }),
  })
  .openapi('ModerationQueueFigures');

export const Queue = z.object({ items: z.array(QueueItem), figures: QueueFigures }).openapi('ModerationQueue');

export const QueueQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.report.queuePageMax).default(50),
});

export const ItemParams = z.object({
  targetType: z.enum(REPORT_TARGETS).openapi({ param: { name: 'targetType', in: 'path' } }),
  targetId: IdString.openapi({ param: { name: 'targetId', in: 'path' } }),
});

export const Decision = z
  .object({
    action: ReportAction,
    reason: DecisionReason.describe('why: the log keeps it, the author reads it'),
  })
  .strict()
  .openapi('ModerationDecision');

export const DecisionAnswer = z
  .object({
    targetType: z.enum(REPORT_TARGETS),
    targetId: z.string(),
    action: z.enum(['remove', 'dismiss']),
    reports: z.number().int().describe('open reports this decision resolved'),
    subjectId: z.string().nullable(),
  })
  .openapi('ModerationDecisionAnswer');
