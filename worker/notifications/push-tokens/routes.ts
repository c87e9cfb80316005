import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { PUSH_TOKEN_REFUSALS } from './refusals';
import { PushToken, RegisterTokenBody, RemovedToken, RemoveTokenBody, TokenParam, WebUnsubscribeQuery } from './schema';
import { registerToken, removeToken, removeWebSubscription } from './service';
import { pushTokenView } from './views';
import { DEFAULT_WEB_PUSH_HOSTS, webEndpointProblem, webEndpointRules } from './web-endpoint';

const TAGS = ['notifications'];
const noToken = errorResponse('No such token of yours');

const postToken = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Register this device for push (upsert by token; a token signed into another account moves here)',
  description: `See docs/push.md for the formats per transport. A webpush endpoint must be an https URL on a browser push service's host (by default ${DEFAULT_WEB_PUSH_HOSTS.join(', ')}), never an IP address; anything else is a 400 naming \`subscription.endpoint\`.`,
  middleware: [auth()] as const,
  request: jsonBody(RegisterTokenBody),
  responses: {
    201: jsonResponse(PushToken, 'Registered'),
    409: errorResponse(
      'The token is stored in a form older code left that cannot be read; remove it and register again',
    ),
  },
});

const deleteToken = defineRoute({
  method: 'delete',
  path: '/{token}',
  tags: TAGS,
  summary: 'Remove a push token of yours (logout or device removal)',
  description:
    'URL-encode the token: Expo tokens contain `[` and `]`. Prefer `POST /api/push-tokens/remove {token}`: a URL is kept in access logs.',
  middleware: [auth()] as const,
  request: { params: TokenParam },
  responses: { 200: jsonResponse(RemovedToken, 'Removed'), 404: noToken },
});

const deleteWeb = defineRoute({
  method: 'delete',
  path: '/',
  tags: TAGS,
  summary: 'Remove your web push subscription to this endpoint (browser unsubscribe)',
  middleware: [auth()] as const,
  request: { query: WebUnsubscribeQuery },
  responses: { 200: jsonResponse(RemovedToken, 'Removed'), 404: noToken },
});

const removeByBody = defineRoute({
  method: 'post',
  path: '/remove',
  tags: TAGS,
  summary: 'Remove a push token or web push subscription of yours, named in the body (the preferred form)',
  description:
    'Body `{token}` or `{platform: "web", endpoint}`. Does what the two DELETE forms do, with the token out of the URL: a URL is kept in access logs (docs/operations.md).',
  middleware: [auth()] as const,
  request: jsonBody(RemoveTokenBody),
  responses: { 200: jsonResponse(RemovedToken, 'Removed'), 404: noToken },
});

/** The signed-in rider's device addresses, mounted at /api/push-tokens. */
export const pushTokenRoutes = createRouter<AppEnv>()
  .openapi(postToken, async (c) => {
    const registration = c.req.valid('json');
    const problem = registration.endpoint && webEndpointProblem(registration.endpoint, webEndpointRules(c.env));
    if (problem) {
      throw new ApiError(400, `subscription.endpoint ${problem}.`, {
        details: [{ field: 'subscription.endpoint', message: problem }],
      });
    }
    const stored = await registerToken(c.var.db, new ObjectId(c.var.user._id), registration);
    if (!stored) throw refusal(PUSH_TOKEN_REFUSALS, 'unreadable');
    return c.json(pushTokenView(stored), 201);
  })
  .openapi(deleteToken, async (c) => {
    const { token } = c.req.valid('param');
    const outcome = await removeToken(c.var.db, new ObjectId(c.var.user._id), token);
    if (outcome === 'not-found') throw refusal(PUSH_TOKEN_REFUSALS, outcome);
    return c.json({ deleted: true as const, token }, 200);
  })
  .openapi(removeByBody, async (c) => {
    const body = c.req.valid('json');
    const userId = new ObjectId(c.var.user._id);
    const [outcome, token] =
      'token' in body
        ? [await removeToken(c.var.db, userId, body.token), body.token]
        : [await removeWebSubscription(c.var.db, userId, body.endpoint), body.endpoint];
    if (outcome === 'not-found') throw refusal(PUSH_TOKEN_REFUSALS, outcome);
    return c.json({ deleted: true as const, token }, 200);
  })
  .openapi(deleteWeb, async (c) => {
    const { endpoint } = c.req.valid('query');
    const outcome = await removeWebSubscription(c.var.db, new ObjectId(c.var.user._id), endpoint);
    if (outcome === 'not-found') throw refusal(PUSH_TOKEN_REFUSALS, outcome);
    return c.json({ deleted: true as const, token: endpoint }, 200);
  });
