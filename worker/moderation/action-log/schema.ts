import { z } from '@hono/zod-openapi';
import { IdString } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { MODERATION_TARGETS, MODERATOR_ACTIONS } from '../documents';

export const ModeratorActionEntry = z
  .object({
    _id: z.string(),
    actorId: z.string().nullable().describe('the admin; null once their account is deleted'),
    action: z.enum(MODERATOR_ACTIONS),
    target: z.object({
      type: z.enum(MODERATION_TARGETS),
      id: z.string().optional(),
      text: z.string().optional().describe('for a term list edit, the term'),
    }),
    subjectId: z.string().nullable().describe('the rider the action was about; null when none or deleted'),
    reason: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    createdAt: z.string(),
  })
  .openapi('ModeratorAction');

export const ModeratorActionPage = pageOf(ModeratorActionEntry);

export const ModeratorActionQuery = PageQuery.extend({
  subjectId: IdString.optional().describe('only actions about this rider (their moderation history)'),
  action: z.enum(MODERATOR_ACTIONS).optional(),
});

export const OwnModerationEntry = z
  .object({
    _id: z.string(),
    action: z.enum(MODERATOR_ACTIONS),
    target: z.object({ type: z.enum(MODERATION_TARGETS), id: z.string().optional() }),
    reason: z.string().describe("the moderator's reason, written for the rider"),
    until: z.string().nullable().optional().describe('for a suspension, its end; null when indefinite'),
    createdAt: z.string(),
  })
  .openapi('OwnModerationEntry');

export const OwnModerationPage = pageOf(OwnModerationEntry);
