import { z } from '@hono/zod-openapi';
import { IdString } from '../../platform/http/ids';
import { LIMITS } from '../../platform/limits';
import { PUSH_CATEGORIES } from '../documents';

export const VapidKey = z.object({ publicKey: z.string() }).openapi('VapidPublicKey');

export const TestPushBody = z
  .object({
    userId: IdString,
    category: z.enum(PUSH_CATEGORIES),
    body: z.string().trim().min(1).max(LIMITS.push.testBodyMax).describe('cut to one line of 80 characters'),
  })
  .strict();

const Ticket = z.object({
  token: z.string(),
  status: z.enum(['ok', 'error']),
  ticketId: z.string().optional().describe('Expo tokens'),
  serviceStatus: z.number().int().optional().describe("web push: the push service's HTTP status (201 accepted)"),
  error: z
    .object({ code: z.string().nullable(), message: z.string() })
    .optional()
    .describe(
      'web push: a 400 or 403 means a VAPID configuration mistake; vapid-not-configured names the missing setting',
    ),
});

export const TestPushAnswer = z
  .object({
    status: z.enum(['accepted', 'failed', 'skipped']).describe('accepted: at least one ticket is ok'),
    reason: z.literal('no-live-tokens').optional(),
    tickets: z.array(Ticket).describe("the push service's ticket for each live token"),
  })
  .openapi('TestPushAnswer');
