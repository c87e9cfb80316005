import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
import { ACCESS_TEXT } from '../auth/access-text';
import { isDatabaseUnreachable } from '../db/errors';
import type { AppEnv } from '../env';
import { ApiError, plainTextError } from '../http/errors';
import { annotate } from '../openapi/annotations';
import { claimsOrInvalid, storedAccount } from './session';

/**
 * Requires a token whose account is an admin *in the store*: the role is read on every
 * request, so revoking it takes effect at once even though tokens never expire.
 * Missing token: 401 `Access denied.`; not admin: 403 `Access denied. Admin only.`;
 * any other failure (bad token, unknown account): 400 `Invalid token.`
 * Only an unreachable database or missing configuration escapes that rule (503 / 500):
 * those are the service's failures, not the client's.
 * @example app.post('/trickipedia', admin(), handler)
 */
export function admin() {
  return annotate(
    createMiddleware<AppEnv>(async (c, next) => {
      const token = c.req.header('x-auth-token');
      if (!token) throw plainTextError(401, ACCESS_TEXT.denied);
      try {
        const claims = await claimsOrInvalid(c.env, token);
        const stored = await storedAccount(c.var.db, claims);
        if (!stored) throw plainTextError(400, ACCESS_TEXT.invalidToken);
        if (!stored.isAdmin) throw plainTextError(403, ACCESS_TEXT.adminOnly);
        c.set('user', { ...claims, role: 'admin' });
      } catch (err) {
        if (err instanceof HTTPException || err instanceof ApiError || isDatabaseUnreachable(err)) throw err;
        throw plainTextError(400, ACCESS_TEXT.invalidToken);
      }
      await next();
    }),
    { kind: 'security', scheme: 'authToken' },
  );
}
