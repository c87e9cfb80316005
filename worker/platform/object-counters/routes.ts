import type { AppEnv } from '../app-env';
import { ApiError } from '../http/errors';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../http/openapi';
import { admin } from '../middleware/admin';
import { CountersQuery, ObjectCountersReport, ShardParam, ShardReset } from './schema';
import { readObjectCounters, resetShard } from './service';

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

const reset = defineRoute({
  method: 'post',
  path: '/socket-shards/{index}/reset',
  tags: ['operations'],
  summary: 'Restart one socket shard: its sockets close (1012) and reconnect to other shards (docs/scale.md)',
  middleware: [admin()] as const,
  request: { params: ShardParam },
  responses: {
    200: jsonResponse(ShardReset, 'The sockets the shard closed'),
    404: errorResponse('No shard with that index (REALTIME_SHARDS)'),
  },
});

/** The objects' own load counters, for the scale harness (bench/scale/) and operators; mounted under /api/admin. */
export const objectCounterRoutes = createRouter<AppEnv>()
  .openapi(read, async (c) => {
    const { riders } = c.req.valid('query');
    return c.json(await readObjectCounters(c.env, riders), 200);
  })
  .openapi(reset, async (c) => {
    const closed = await resetShard(c.env, c.req.valid('param').index);
    if (closed === null)
      throw new ApiError(404, 'No such socket shard.', {
        details: [{ field: 'index', message: 'is not below REALTIME_SHARDS' }],
      });
    return c.json({ closed }, 200);
  });
