import { z } from '@hono/zod-openapi';
import { PUSH_CATEGORIES } from '../db/documents';
import { IdString } from '../http/ids';
import { LIMITS } from '../limits';

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
  ticketId: z.string().optional(),
  error: z.object({ code: z.string().nullable(), message: z.string() }).optional(),
});

export const TestPushAnswer = z
  .object({
    status: z.enum(['accepted', 'failed', 'skipped']).describe('accepted: at least one ticket is ok'),
    reason: z.literal('no-live-tokens').optional(),
    tickets: z.array(Ticket).describe("the push service's ticket for each live token"),
  })
  .openapi('TestPushAnswer');
