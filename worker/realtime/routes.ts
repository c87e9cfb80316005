import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../http/errors';
import { shardCount, shardName } from './settings';

/**
 * `GET /socket.io/`: hands a WebSocket upgrade to one socket shard (docs/realtime.md, Topology).
 * Only the WebSocket transport of Engine.IO v4 is served; long-polling gets a 400 that says so.
 */
export function socketUpgrade(c: Context<AppEnv>): Promise<Response> {
  const url = new URL(c.req.url);
  if (url.searchParams.get('EIO') !== '4') {
    throw new ApiError(400, 'Only Engine.IO protocol 4 is served (socket.io-client v3 or v4): EIO=4.', {
      details: [{ field: 'EIO', message: 'must be 4' }],
    });
  }
  if (url.searchParams.get('transport') !== 'websocket') {
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
}
