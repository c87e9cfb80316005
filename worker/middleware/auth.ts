import { createMiddleware } from 'hono/factory';
import type { Env } from '../env';
import { plainTextError } from '../http/errors';
import { textResponse, withDocs } from '../http/openapi';
import { ACCESS_TEXT } from '../session/access-text';
import { claimsOrInvalid } from '../session/claims';
import type { TokenClaims } from '../session/token';

/** What the access checks set: the caller's token claims on `c.var.user`. */
export type SessionVariables = { user: TokenClaims };

/** The security schemes, named for the header each check reads. */
export const SECURITY_SCHEMES = {
  'x-auth-token': {
    type: 'apiKey',
    in: 'header',
    name: 'x-auth-token',
    description: 'Session JWT as returned by sign-in; read by the auth and admin checks.',
  },
  'authorization-bearer': {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The same session JWT as `Authorization: Bearer <token>`; read by the account-or-admin check only.',
  },
} as const;

/**
 * Requires a valid session token in `x-auth-token`; its claims become `c.var.user`.
 * Missing: 401 `Access denied. No token provided.`; unverifiable: 400 `Invalid token.`
 * @example router.openapi(defineRoute({ method: 'get', path: '/me', middleware: [auth()] as const, ... }), handler)
 */
export function auth() {
  return withDocs(
    createMiddleware<{ Bindings: Env; Variables: SessionVariables }>(async (c, next) => {
      const token = c.req.header('x-auth-token');
      if (!token) throw plainTextError(401, ACCESS_TEXT.noToken);
      c.set('user', await claimsOrInvalid(c.env, token));
      await next();
    }),
    {
      security: [{ 'x-auth-token': [] }],
      responses: { 401: textResponse([ACCESS_TEXT.noToken]), 400: textResponse([ACCESS_TEXT.invalidToken]) },
    },
  );
}
