import { createMiddleware } from 'hono/factory';
import type { Env } from '../env';
import { plainTextError } from '../http/errors';
import { textResponse, withDocs } from '../http/openapi';
import { ACCESS_TEXT } from '../tokens/access-text';
import { claimsOrInvalid, orExpired } from '../tokens/claims';
import { countLegacyToken } from '../tokens/legacy-usage';
import type { CallerAccount } from '../tokens/service';
import type { TokenClaims } from '../tokens/token';
import type { AccountReaderVariables } from './account-reader';
import { acceptedAccount } from './admit-caller';
import type { DatabaseVariables } from './database';
import type { CheckAhead } from './read-ahead';
import { SUSPENDED_RESPONSE } from './suspended';

/**
 * What the access checks set: the caller's token claims on `c.var.user`, the caller's account as stored now on
 * `c.var.account` (read once, by the check), and an opt-in token's session id (none for a legacy token).
 */
export type SessionVariables = { user: TokenClaims; account: CallerAccount; sessionId?: string };

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
 * Requires a valid session token in `x-auth-token` whose account still accepts it; its claims become
 * `c.var.user` and the stored account `c.var.account`.
 * Missing: 401 `Access denied. No token provided.`; unverifiable, or the account is gone or revoked the token: 400 `Invalid token.`;
 * an opt-in token past its exp: 401 JSON `Token expired.` (worker/platform/tokens/claims.ts); a suspended account:
 * 403 JSON `Account suspended.` (./suspended.ts).
 * With `ahead`, the route's first read (./read-ahead.ts) or its write (./write-ahead.ts) goes to the database in the
 * same call as the account's.
 * @example router.openapi(defineRoute({ method: 'get', path: '/me', middleware: [auth()] as const, ... }), handler)
 */
export function auth(options: { ahead?: CheckAhead } = {}) {
  const { ahead } = options;
  return withDocs(
    createMiddleware<{ Bindings: Env; Variables: SessionVariables & DatabaseVariables & AccountReaderVariables }>(
      async (c, next) => {
        const token = c.req.header('x-auth-token');
        if (!token) throw plainTextError(401, ACCESS_TEXT.noToken);
        const verified = await claimsOrInvalid(c.env, token);
        // With `ahead`, the route's first read or its write travels in the account read's call (when it sends one).
        const account = (await ahead?.checkWith(c, verified)) ?? (await acceptedAccount(c.var, verified, c.req));
        c.set('account', account);
        c.set('user', verified.claims);
        c.set('sessionId', verified.sessionId);
        countLegacyToken(verified, c);
        await next();
      },
    ),
    {
      security: [{ 'x-auth-token': [] }],
      responses: {
        401: orExpired(textResponse([ACCESS_TEXT.noToken])),
        400: textResponse([ACCESS_TEXT.invalidToken]),
        403: SUSPENDED_RESPONSE,
      },
    },
  );
}
