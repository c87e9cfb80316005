import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { requireSetting } from '../../platform/config';
import { ApiError, plainTextError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, textResponse } from '../../platform/http/openapi';
import { database } from '../../platform/middleware/database';
import { ACCESS_TEXT } from '../../platform/tokens/access-text';
import { tokenCaller } from '../../platform/tokens/service';
import { upgradeToVoiceBox } from './service';
import { mintVoiceSessionId } from './session-owner';
import { voiceAuthRequired } from './settings';
import { TOKEN_PROTOCOL, tokenFromProtocols } from './token-protocol';

const UpgradeQuery = z.object({
  token: z
    .string()
    .optional()
    .describe(
      'the session token, kept for older clients: a URL is kept in access logs, so send `x-auth-token`, or from a browser the subprotocols `rider-token, <token>` (docs/voice.md). Optional unless VOICE_WS_AUTH=required; the session is then bound to this rider, and only their chats are spoken into it',
    ),
});

const upgrade = defineRoute({
  method: 'get',
  path: '/voice/ws',
  tags: ['voice'],
  summary: 'Voice WebSocket: speech of companion replies with barge-in, proxied to the voice box (docs/voice.md)',
  middleware: [database()] as const,
  request: { query: UpgradeQuery },
  responses: {
    101: {
      description: `Switching Protocols: the voice WebSocket; the first message is \`{type:"_ready", sessionId}\`. The token goes in \`x-auth-token\` or, from a browser, as the subprotocols \`${TOKEN_PROTOCOL}, <token>\` (answered with \`${TOKEN_PROTOCOL}\`).`,
    },
    400: {
      ...errorResponse('Not a WebSocket upgrade (`details` names `upgrade`)'),
      content: {
        ...errorResponse('').content,
        ...textResponse([ACCESS_TEXT.invalidToken]).content,
      },
      description:
        'Not a WebSocket upgrade (JSON, `details` names `upgrade`); or a token (`x-auth-token`, the `rider-token` subprotocol or query `token`) that is not valid (plain text)',
    },
    401: textResponse([ACCESS_TEXT.noToken]),
    502: errorResponse('The voice box did not answer'),
    503: errorResponse(
      'Voice is not configured on this deployment: neither VOICE_URL nor VOICE_INSTANCES is set',
      z.object({ 'Retry-After': z.string().optional() }),
    ),
  },
});

/**
 * `GET /voice/ws`: the public voice WebSocket (the interface spec, Voice service), forwarded to the
 * voice box's `/ws`. A valid session token in `x-auth-token`, the `rider-token` subprotocol or `token` binds the session to its rider;
 * `VOICE_WS_AUTH=required` makes one mandatory (off by default: the product's clients connect without one).
 */
export const voiceRoutes = createRouter<AppEnv>().openapi(upgrade, async (c) => {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
    throw new ApiError(400, 'Expected a WebSocket upgrade request.', {
      details: [{ field: 'upgrade', message: 'header must be websocket' }],
    });
  }
  const required = voiceAuthRequired(c.env);
  const offered = tokenFromProtocols(c.req.header('sec-websocket-protocol'));
  const token = c.req.header('x-auth-token') ?? offered.token ?? c.req.valid('query').token;
  if (!token && required) throw plainTextError(401, ACCESS_TEXT.noToken);
  // A token that does not verify is refused rather than ignored: its session would silently be unbound.
  const caller = token ? await tokenCaller(c.env, c.var.db, token) : null;
  if (token && !caller) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  const sessionId = await mintVoiceSessionId(
    requireSetting(c.env, 'JWT_SECRET'),
    caller ? caller.userId.toHexString() : null,
  );
  const answer = await upgradeToVoiceBox(c.env, c.req.raw, sessionId, offered.forwarded);
  if (answer === 'not-configured') {
    throw new ApiError(
      503,
      'Voice is not configured: VOICE_URL is not set (the voice box address), nor VOICE_INSTANCES (its containers); docs/voice.md.',
    );
  }
  if (answer === 'unreachable') throw new ApiError(502, 'The voice box did not answer. Try again shortly.');
  return answer;
});
