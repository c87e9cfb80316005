import { createRoute } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { createRouter, jsonResponse } from '../http/openapi';
import { retrievalMode } from '../retrieval/vector-search';
import { SERVICE_VERSION } from '../version';
import { Health } from './schema';
import { databaseAnswers } from './service';

// createRoute, not defineRoute: health reports a down database in its own body, not the generic 503.
const health = createRoute({
  method: 'get',
  path: '/',
  tags: ['meta'],
  summary: 'Liveness and database reachability',
  security: [],
  responses: {
    200: jsonResponse(Health, 'Service and database up'),
    503: jsonResponse(Health, 'Database unreachable (same body, db "down")'),
  },
});

export const healthRoutes = createRouter<AppEnv>().openapi(health, async (c) => {
  const up = await databaseAnswers(c.var.db);
  return c.json(
    { ok: up, db: up ? ('up' as const) : ('down' as const), version: SERVICE_VERSION, retrieval: retrievalMode(c.env) },
    up ? 200 : 503,
  );
});
