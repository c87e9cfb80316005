import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { tokenCaller } from '../../platform/tokens/service';
import { HeartbeatAnswer, HeartbeatBody } from './schema';
import { recordHeartbeat } from './service';
import { heartbeatView } from './views';

const postHeartbeat = defineRoute({
  method: 'post',
  path: '/client-heartbeat',
  tags: ['client version'],
  summary: 'Report the installation: upserts its record; a new version or build is appended to its history',
  description:
    'Auth optional: with a valid `x-auth-token` the installation is linked to that account; without one, or with a token that does not verify, it is recorded anonymously. Fields the server does not know are ignored, so a heartbeat from a newer app reaches an older server. See docs/version-policy.md.',
  security: [{}, { 'x-auth-token': [] }],
  request: jsonBody(HeartbeatBody),
  responses: { 200: jsonResponse(HeartbeatAnswer, 'Recorded') },
});

/** The client heartbeat, mounted under /api. */
export const clientHeartbeatRoutes = createRouter<AppEnv>().openapi(postHeartbeat, async (c) => {
  const caller = await tokenCaller(c.env, c.var.db, c.req.header('x-auth-token'));
  const recorded = await recordHeartbeat(c.var.db, c.req.valid('json'), caller?.userId ?? null);
  return c.json(heartbeatView(recorded), 200);
});
