import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { ApiError } from '../http/errors';
import { createRouter, defineRoute, errorResponse } from '../http/openapi';
import { shardCount, shardName } from './settings';

// socket.io-client sends more query parameters than these (a timestamp `t`, its own `query` entries): all pass.
const UpgradeQuery = z
  .object({
    EIO: z.string().optional().describe('Engine.IO protocol version: only `4` (socket.io-client v3 and v4)'),
    transport: z.string().optional().describe('only `websocket`: long-polling is refused'),
    token: z.string().optional().describe('the session token, for clients that cannot send it in the handshake `auth`'),
  })
  .passthrough();

const upgrade = defineRoute({
  method: 'get',
  // With the slash socket.io-client always sends (addTrailingSlash); redocly.yaml says why the lint allows it.
  path: '/socket.io/',
  tags: ['real-time'],
  summary: 'Socket.IO connection for the /feed and /messages namespaces (WebSocket transport; docs/realtime.md)',
  request: { query: UpgradeQuery },
  responses: {
    101: { description: 'Switching Protocols: a WebSocket speaking Engine.IO v4 and Socket.IO v5' },
    400: errorResponse('Not an Engine.IO 4 WebSocket upgrade: `details` names `EIO`, `transport` or `upgrade`'),
  },
});

/**
 * `GET /socket.io/`: hands a WebSocket upgrade to one socket shard (docs/realtime.md, Topology).
 * Only the WebSocket transport of Engine.IO v4 is served; long-polling gets a 400 that says so.
 */
export const realtimeRoutes = createRouter<AppEnv>().openapi(upgrade, async (c) => {
  const { EIO, transport } = c.req.valid('query');
  if (EIO !== '4') {
    throw new ApiError(400, 'Only Engine.IO protocol 4 is served (socket.io-client v3 or v4): EIO=4.', {
      details: [{ field: 'EIO', message: 'must be 4' }],
    });
  }
  if (transport !== 'websocket') {
    throw new ApiError(400, 'Only the WebSocket transport is served: connect with transports: ["websocket"].', {
      details: [{ field: 'transport', message: 'must be websocket' }],
    });
  }
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
    throw new ApiError(400, 'Expected a WebSocket upgrade request.', {
      details: [{ field: 'upgrade', message: 'header must be websocket' }],
    });
  }
  // Any shard will do: events find a rider's sockets through the directory, so new connections spread evenly.
  const shard = Math.floor(Math.random() * shardCount(c.env));
  return c.env.SOCKET_SHARD.get(c.env.SOCKET_SHARD.idFromName(shardName(shard))).fetch(c.req.raw);
});
