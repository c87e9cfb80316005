import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { accountsRoutes } from './accounts/router';
import { readUser } from './accounts/users/read-user';
import { billingRoutes } from './billing/router';
import { companionRoutes } from './companion/router';
import { PERSONAL_DATA } from './data';
import { eventsRoutes } from './events/router';
import { growthRoutes } from './growth/router';
import { moderationRoutes } from './moderation/router';
import { sendAccountNotice } from './notifications/push/account-notice';
import { notificationsRoutes } from './notifications/router';
import { openApiRoutes } from './platform/api-description/routes';
import type { AppEnv } from './platform/app-env';
import { ApiError } from './platform/http/errors';
import { onError, onNotFound } from './platform/http/on-error';
import { createRouter } from './platform/http/openapi';
import { LIMITS } from './platform/limits';
import { accountReader } from './platform/middleware/account-reader';
import { apiCors } from './platform/middleware/api-cors';
import { SECURITY_SCHEMES } from './platform/middleware/auth';
import { database } from './platform/middleware/database';
import { requestLog } from './platform/middleware/request-log';
import { securityHeaders } from './platform/middleware/security-headers';
import { platformRoutes } from './platform/router';
import { SERVICE_VERSION } from './platform/version';
import { ridingRoutes } from './riding/router';
import { detachSpotFromPosts } from './social/feed/service';
import { profilePicture } from './social/media/profile';
import { sendsMediaBytes } from './social/media/routes';
import { socialRoutes } from './social/router';

const bodyLimited = bodyLimit({
  maxSize: LIMITS.requestBodyBytes,
  onError: () => {
    throw new ApiError(413, `Request body too large: the limit is ${LIMITS.requestBodyBytes} bytes.`);
  },
});

/** The JSON body limit, except on requests carrying a photo or a video part: the media routes read those under LIMITS.media. */
const jsonBodyLimit: MiddlewareHandler<AppEnv> = (c, next) =>
  sendsMediaBytes(c.req.method, c.req.path) ? next() : bodyLimited(c, next);

/** The whole HTTP API, mounted under /api. */
export function createApp() {
  const app = createRouter<AppEnv>();
  app.onError(onError);
  app.notFound(onNotFound);

  // Every page's browser asks for it: an empty, cached answer, ahead of the request log so it is no request figure.
  app.get('/favicon.ico', (c) => c.body(null, 204, { 'cache-control': 'public, max-age=86400' }));
  // nosniff on every answer; the pages' Content-Security-Policy and Referrer-Policy (worker/platform/http/page-policy.ts).
  // First, so its duration covers every other middleware, and every answer carries x-request-id.
  app.use('*', requestLog());
  app.use('*', securityHeaders());
  app.use(
    '/api/*',
    // Tokens travel in headers, never cookies, so any origin may call; the website and the
    // browser extension read the token from x-auth-token.
    apiCors({
      // x-socket-id: a message send names the sender's own socket, which gets no echo (docs/realtime.md).
      allowHeaders: [
        'content-type',
        'x-auth-token',
        'authorization',
        'x-voice-session',
        'x-socket-id',
        'x-session-mode',
      ],
      exposeHeaders: ['x-auth-token', 'retry-after', 'www-authenticate', 'x-request-id'],
      maxAgeSeconds: 86400,
    }),
    jsonBodyLimit,
    database(),
    // The access checks read the caller's stored account with the accounts domain's reader.
    accountReader(readUser),
  );
  // A browser app on another origin polls /socket.io/ by XHR; the token travels in the packets, never cookies.
  app.use('/socket.io/*', cors({ origin: '*' }));

  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
  }
  // Each domain mounts its own routes; where one domain's work needs another's, the function is handed in here.
  app.route('/', platformRoutes);
  app.route(
    '/',
    accountsRoutes(PERSONAL_DATA, {
      profilePicture,
      notifyRider: (c, notice) => sendAccountNotice(c.var.db, c.env, notice),
    }),
  );
  app.route('/', ridingRoutes({ detachSpotFromPosts }));
  app.route('/', socialRoutes);
  app.route('/', eventsRoutes);
  app.route('/', companionRoutes);
  app.route('/', billingRoutes);
  app.route('/', notificationsRoutes);
  app.route('/', growthRoutes);
  app.route('/', moderationRoutes);
  app.route(
    '/api',
    openApiRoutes(() =>
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'Rider service API',
          version: SERVICE_VERSION,
          description:
            'Backend of the action-sports rider app. JSON errors are `{error, details?}`; the Live access checks answer in plain text. Send the session token as `x-auth-token` (auth and admin checks) or `Authorization: Bearer` (account-or-admin routes), as each route says.',
        },
        servers: [{ url: '/' }],
      }),
    ),
  );
  return app;
}
