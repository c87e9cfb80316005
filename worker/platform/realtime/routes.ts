import { z } from '@hono/zod-openapi';
import { SHARD_HEADER, shardOfSession } from '../../../durable-objects/socket-session-id';
import type { AppEnv } from '../app-env';
import { readCapped } from '../http/capped-body';
import { ApiError } from '../http/errors';
import { createRouter, defineRoute, errorResponse, RETRY_AFTER } from '../http/openapi';
import { takeHandshakeAllowance } from './handshake-limit';
import { roomSettings, shardCount, shardName } from './settings';

// socket.io-client sends more query parameters than these (a timestamp `t`, its own `query` entries): all pass.
const EngineQuery = z
  .object({
    EIO: z.string().optional().describe('Engine.IO protocol version: only `4` (socket.io-client v3 and v4)'),
    transport: z.string().optional().describe('`polling` (HTTP long-polling) or `websocket`'),
    sid: z
      .string()
      .optional()
      .describe(
        'the Engine.IO session id from the open packet: every polling request after the handshake, and the upgrade',
      ),
    token: z.string().optional().describe('the session token, for clients that cannot send it in the handshake `auth`'),
  })
  .passthrough();

const badRequest = errorResponse(
  'Not an Engine.IO 4 request: `details` names `EIO`, `transport`, `upgrade` or `sid` (unknown or closed session: connect again)',
);

const connect = defineRoute({
  method: 'get',
  // With the slash socket.io-client always sends (addTrailingSlash); redocly.yaml says why the lint allows it.
  path: '/socket.io/',
  tags: ['real-time'],
  summary:
    'Socket.IO connection for the /feed and /messages namespaces: WebSocket upgrade, or the polling handshake and long-poll (docs/realtime.md)',
  request: { query: EngineQuery },
  responses: {
    101: { description: 'Switching Protocols: a WebSocket speaking Engine.IO v4 and Socket.IO v5' },
    200: {
      description: 'Polling: the open packet (handshake) or the packets sent since the last poll, separated by \\x1e',
    },
    400: badRequest,
    429: errorResponse(
      'Too many new sessions (either transport) from this client address this minute; Retry-After gives the seconds to wait',
      RETRY_AFTER,
    ),
    503: errorResponse(
      'The shard this new session went to is full; Retry-After gives the seconds to wait',
      RETRY_AFTER,
    ),
  },
});

const send = defineRoute({
  method: 'post',
  path: '/socket.io/',
  tags: ['real-time'],
  summary: "Polling: the client's Engine.IO packets, separated by \\x1e (docs/realtime.md)",
  request: { query: EngineQuery },
  responses: {
    200: { description: '`ok`' },
    400: errorResponse(
      'Not an Engine.IO 4 request (`details` names `EIO`, `transport` or `sid`: an unknown or closed session, connect again), or a packet of it closed the session (`details` names `body` and why: a malformed packet, a connect for a namespace already joined, too many connects, more packets queued than the client polls)',
    ),
    413: errorResponse('The payload is larger than the announced maxPayload; the session is closed'),
  },
});

/** The shard a request goes to: the one its session id names, or any for a new connection. */
function shardFor(c: { env: AppEnv['Bindings'] }, sid: string | undefined): number {
  // Any shard will do: events find a rider's sockets through the directory, so new connections spread evenly.
  if (sid === undefined) return Math.floor(Math.random() * shardCount(c.env));
  const shard = shardOfSession(sid);
  if (shard === null || shard >= shardCount(c.env)) {
    throw new ApiError(400, 'Unknown Engine.IO session: connect again.', {
      details: [{ field: 'sid', message: 'not a session id this service issued' }],
    });
  }
  return shard;
}

function checkEngine(EIO: string | undefined, transport: string | undefined): void {
  if (EIO !== '4') {
    throw new ApiError(400, 'Only Engine.IO protocol 4 is served (socket.io-client v3 or v4): EIO=4.', {
      details: [{ field: 'EIO', message: 'must be 4' }],
    });
  }
  if (transport !== 'websocket' && transport !== 'polling') {
    throw new ApiError(400, 'Only the polling and WebSocket transports are served.', {
      details: [{ field: 'transport', message: 'must be polling or websocket' }],
    });
  }
}

/**
 * A polling POST's body, read no further than one byte past maxPayload: a chunked body declares no length, and
 * reading all of it cost seconds per hundred MB. A longer one goes on as maxPayload + 1 bytes, which the shard
 * refuses as it refuses any oversized payload (413, the session closed).
 */
async function postedPayload(env: AppEnv['Bindings'], raw: Request): Promise<Uint8Array> {
  const limit = roomSettings(env).maxPayloadBytes;
  const body = await readCapped(raw.body, limit);
  return body === 'too-large' ? new Uint8Array(limit + 1) : body;
}

/** Hands the request to its shard, telling the shard its own index so the session ids it issues route back to it. */
async function toShard(c: { env: AppEnv['Bindings']; req: { raw: Request } }, shard: number): Promise<Response> {
  const { raw } = c.req;
  // A POST is read here, not streamed on: a shard that answers without reading it (a closed session) would
  // otherwise leave the stream running after the response, and the runtime then breaks the client's connection.
  const body = raw.method === 'POST' ? await postedPayload(c.env, raw) : null;
  const request = body ? new Request(raw.url, { method: raw.method, headers: raw.headers, body }) : new Request(raw);
  request.headers.set(SHARD_HEADER, String(shard));
  return c.env.SOCKET_SHARD.get(c.env.SOCKET_SHARD.idFromName(shardName(shard))).fetch(request);
}

/**
 * `/socket.io/`: Engine.IO v4 over a WebSocket or HTTP long-polling, handed to one socket shard
 * (docs/realtime.md, Topology). A session id names its shard, so every later request of a session reaches it.
 */
export const realtimeRoutes = createRouter<AppEnv>()
  .openapi(connect, async (c) => {
    const { EIO, transport, sid } = c.req.valid('query');
    checkEngine(EIO, transport);
    if (transport === 'websocket' && c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      throw new ApiError(400, 'Expected a WebSocket upgrade request.', {
        details: [{ field: 'upgrade', message: 'header must be websocket' }],
      });
    }
    if (sid === undefined) await takeHandshakeAllowance(c.env, c.req.raw);
    return toShard(c, shardFor(c, sid));
  })
  .openapi(send, async (c) => {
    const { EIO, transport, sid } = c.req.valid('query');
    checkEngine(EIO, transport);
    if (transport !== 'polling' || sid === undefined) {
      throw new ApiError(400, 'Packets are posted only to a polling session: transport=polling&sid=<session id>.', {
        details: [{ field: sid === undefined ? 'sid' : 'transport', message: 'required for a POST' }],
      });
    }
    return toShard(c, shardFor(c, sid));
  });
