import { z } from '@hono/zod-openapi';
import { IdString } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';

export const REPORT_TARGETS = ['post', 'comment', 'user'] as const;
export const REPORT_REASONS = ['spam', 'harassment', 'hate', 'violence', 'nudity', 'self-harm', 'other'] as const;

/** What an admin decides about reported content, alone or for a whole queue item. */
export const ReportAction = z.enum(['remove', 'dismiss']);
/** An admin's reason for a decision, as the action log keeps it and the author reads it. */
export const DecisionReason = z.string().trim().min(1).max(LIMITS.report.decisionReasonMax);

export const NewReport = z
  .object({
    targetType: z.enum(REPORT_TARGETS),
    targetId: IdString,
    reason: z.enum(REPORT_REASONS),
    note: z.string().trim().max(LIMITS.report.noteMax).optional(),
  })
  .strict()
  .openapi('NewReport');

export const Report = z
  .object({
    _id: z.string(),
    reporterId: z.string().nullable().describe('null when the reporter has since deleted their account'),
    targetType: z.enum(REPORT_TARGETS),
    targetId: z.string(),
    postId: z.string().optional().describe('for a comment, the post it sits on'),
    reason: z.enum(REPORT_REASONS),
    note: z.string().optional(),
    status: z.enum(['open', 'resolved']),
    action: z.enum(['remove', 'dismiss']).optional(),
    resolvedBy: z.string().optional(),
    resolvedAt: z.string().optional(),
    createdAt: z.string(),
  })
  .openapi('Report');

export const ReportPage = pageOf(Report);
export const ReportQuery = PageQuery.extend({ status: z.enum(['open', 'resolved']).default('open') });
export const Resolution = z
  .object({
    action: ReportAction,
    reason: DecisionReason.optional().describe(
      'why, for the moderator action log and the author of removed content; a plain default when absent',
    ),
  })
  .strict()
  .openapi('ReportResolution');

export const OwnReport = z
  .object({
    _id: z.string(),
    targetType: z.enum(REPORT_TARGETS),
    targetId: z.string(),
    reason: z.enum(REPORT_REASONS),
    state: z
      .enum(['open', 'removed', 'dismissed'])
      .describe('open: waiting for an admin; removed: the content was taken down; dismissed: it stays'),
    createdAt: z.string(),
    decidedAt: z.string().optional(),
  })
  .openapi('OwnReport');

export const OwnReportPage = pageOf(OwnReport);
