import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';

const Reason = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.suspension.reasonMax, `must be at most ${LIMITS.suspension.reasonMax} characters`);

export const SuspendBody = z
  .object({
    reason: Reason.describe('why, in words the rider reads on their account screen and in the push'),
    until: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date and time, or null' })
      .nullable()
      .optional()
      .describe('when it ends; null or absent: until an admin lifts it'),
  })
  .strict();

export const LiftBody = z.object({ reason: Reason.describe('why it is lifted (the action log keeps it)') }).strict();

export const SuspensionAnswer = z
  .object({
    userId: z.string(),
    until: z.string().nullable().describe('when it ends (ISO 8601), or null: until lifted'),
    reason: z.string(),
    by: z.string().describe('the admin who set it'),
    at: z.string(),
  })
  .openapi('RiderSuspension');

export const LiftAnswer = z.object({ userId: z.string(), lifted: z.literal(true) }).openapi('RiderSuspensionLifted');
