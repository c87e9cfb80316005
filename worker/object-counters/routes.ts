import type { AppEnv } from '../app-env';
import { createRouter, defineRoute, jsonResponse } from '../http/openapi';
import { admin } from '../middleware/admin';
import { CountersQuery, ObjectCountersReport } from './schema';
import { readObjectCounters } from './service';

const read = defineRoute({
  method: 'get',
  path: '/object-counters',
  tags: ['operations'],
  summary: 'Requests, wall and CPU time each Durable Object instance carried since it started (docs/scale.md)',
  middleware: [admin()] as const,
  request: { query: CountersQuery },
  responses: {
    200: jsonResponse(ObjectCountersReport, 'Every socket shard and database gateway, and the named riders'),
  },
});

/** The objects' own load counters, for the scale harness (bench/scale/) and operators; mounted under /api/admin. */
export const objectCounterRoutes = createRouter<AppEnv>().openapi(read, async (c) => {
  const { riders } = c.req.valid('query');
  return c.json(await readObjectCounters(c.env, riders), 200);
});
