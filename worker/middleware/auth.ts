import { createMiddleware } from 'hono/factory';
import { ACCESS_TEXT } from '../auth/access-text';
import type { AppEnv } from '../env';
import { plainTextError } from '../http/errors';
import { annotate } from '../openapi/annotations';
import { claimsOrInvalid } from './session';

/**
 * Requires a valid session token in `x-auth-token`; its claims become `c.var.user`.
 * Missing: 401 `Access denied. No token provided.`; unverifiable: 400 `Invalid token.`
 * @example app.get('/users/me', auth(), handler)
 */
export function auth() {
  return annotate(
    createMiddleware<AppEnv>(async (c, next) => {
      const token = c.req.header('x-auth-token');
      if (!token) throw plainTextError(401, ACCESS_TEXT.noToken);
      c.set('user', await claimsOrInvalid(c.env, token));
      await next();
    }),
    { kind: 'security', scheme: 'authToken' },
  );
}
