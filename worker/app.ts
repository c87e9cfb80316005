import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { adminUserRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import type { AppEnv } from './env';
import { healthRoutes } from './health/routes';
import { ApiError } from './http/errors';
import { onError, onNotFound } from './http/on-error';
import { LIMITS } from './limits';
import { database } from './middleware/database';
import { openApiRoutes } from './openapi/routes';
import { userRoutes } from './users/routes';

/** The whole HTTP API, mounted under /api. */
export function createApp() {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.notFound(onNotFound);

  app.use(
    '/api/*',
    // Tokens travel in headers, never cookies, so any origin may call; the website and the
    // browser extension read the token from x-auth-token.
    cors({
      origin: '*',
      allowHeaders: ['content-type', 'x-auth-token', 'authorization', 'x-voice-session'],
      exposeHeaders: ['x-auth-token', 'retry-after'],
      maxAge: 86400,
    }),
    bodyLimit({
      maxSize: LIMITS.requestBodyBytes,
      onError: () => {
        throw new ApiError(413, `Request body too large: the limit is ${LIMITS.requestBodyBytes} bytes.`);
      },
    }),
    database(),
  );

  app.route('/api/health', healthRoutes);
  app.route('/api/auth', authRoutes);
  app.route('/api/users', userRoutes);
  app.route('/api/admin', adminUserRoutes);
  app.route(
    '/api',
    openApiRoutes(() => app.routes),
  );
  return app;
}
