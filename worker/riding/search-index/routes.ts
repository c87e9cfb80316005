import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { IdString } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { admin } from '../../platform/middleware/admin';
import { retrievalMode } from '../../platform/retrieval/vector-search';
import { backfillPage } from './backfill';

const BackfillBody = z
  .object({
    kind: z.enum(['trick', 'blog', 'spot']).describe('trickipedia entries, published blog posts or spots'),
    after: IdString.optional().describe("the previous answer's `next`; left out to start"),
  })
  .strict();

const backfill = defineRoute({
  method: 'post',
  path: '/retrieval/backfill',
  tags: ['admin'],
  summary: 'Index stored documents in the vector store, a page per call',
  description:
    'The backfill command for semantic retrieval: call with each kind, then again with `after: next` until `next` is null. Creates, updates and deletes keep the index current by themselves.',
  middleware: [admin()] as const,
  request: jsonBody(BackfillBody),
  responses: {
    200: jsonResponse(
      z.object({ indexed: z.number().int(), next: z.string().nullable() }),
      'The page indexed, and where to go on',
    ),
    409: errorResponse('No vector store is bound on this deployment (VECTORIZE, OPENAI_EMBEDDING_MODEL)'),
  },
});

/** Retrieval upkeep for admins, mounted under /api/admin. */
export const adminRetrievalRoutes = createRouter<AppEnv>().openapi(backfill, async (c) => {
  if (retrievalMode(c.env) !== 'semantic') {
    throw new ApiError(
      409,
      'Retrieval is keyword search here: bind a Vectorize index as VECTORIZE and set OPENAI_EMBEDDING_MODEL (and OPENAI_API_KEY) to index.',
    );
  }
  const { kind, after } = c.req.valid('json');
  const { indexed, last } = await backfillPage(c.var.db, c.env, kind, after ? new ObjectId(after) : undefined);
  return c.json({ indexed, next: last?.toHexString() ?? null }, 200);
});
