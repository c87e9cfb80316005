import { z } from '@hono/zod-openapi';

export const Health = z.object({
  ok: z.boolean().describe('true when the service and its database answer'),
  db: z.enum(['up', 'down']),
  version: z.string(),
});
