import { z } from 'zod';

export const Health = z.object({
  ok: z.boolean().describe('true when the service and its database answer'),
  db: z.enum(['up', 'down']),
  version: z.string(),
});
