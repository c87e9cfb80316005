import { z } from 'zod';
import { PageQuery } from '../http/pagination';

export const AdminUserQuery = PageQuery.extend({
  q: z.string().trim().max(200).optional().describe('matches name or email, case-insensitive'),
});

export const AdminUserUpdate = z
  .object({
    role: z.literal('admin').nullable().optional(),
    isBot: z.boolean().optional(),
    analyticsExcluded: z.boolean().optional(),
  })
  .strict();
