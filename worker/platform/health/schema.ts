import { z } from '@hono/zod-openapi';

export const Health = z.object({
  ok: z.boolean().describe('true when the service and its database answer'),
  db: z.enum(['up', 'down']),
  version: z.string(),
  retrieval: z
    .enum(['semantic', 'keyword'])
    .describe(
      "the companion's look-ups: `semantic` with a vector store bound (VECTORIZE, OPENAI_EMBEDDING_MODEL), else `keyword` (the database)",
    ),
});
