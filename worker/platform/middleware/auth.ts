import { createMiddleware } from 'hono/factory';
import type { Env } from '../env';
import { plainTextError } from '../http/errors';
import { textResponse, withDocs } from '../http/openapi';
import { ACCESS_TEXT } from '../tokens/access-text';
import { claimsOrInvalid, orExpired } from '../tokens/claims';
import { countLegacyToken } from '../tokens/legacy-usage';
import { type CallerAccount, readAccountForToken, readAccountWith } from '../tokens/service';
import type { TokenClaims, VerifiedToken } from '../tokens/token';
import type { AccountReaderVariables } from './account-reader';
import type { DatabaseVariables } from './database';
import type { ReadAhead } from './read-ahead';
import { refuseWhileSuspended, SUSPENDED_RESPONSE } from './suspended';

/**
 * What the access checks set: the caller's token claims on `c.var.user`, the caller's account as stored now on
 * `c.var.account` (read once, by the check), and an opt-in token's session id (none for a legacy token).
 */
export type SessionVariables = { user: TokenClaims; account: CallerAccount; sessionId?: string };

/** What the access checks need of the request: its store and the reader of a stored account. */
export type CheckVariables = Pick<DatabaseVariables, 'db'> & AccountReaderVariables;

/**
 * The account behind verified claims, read, or the Live 400 `Invalid token.` when it is gone or no longer accepts
 * the token (its tokens were revoked after this one was signed), so existing clients sign out; or the 403
 * `Account suspended.` when it is suspended and the request is not one a suspended rider may make (./suspended.ts).
 */
export async function acceptedAccount(
  vars: CheckVariables,
  verified: VerifiedToken,
  request: { method: string; path: string },
): Promise<CallerAccount> {
  const account = await readAccountForToken(vars.db, verified, vars.readAccount);
  if (!account) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  refuseWhileSuspended(account, request);
  return account;
}

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
 * With `ahead`, the route's first read goes to the database in the same call as the account's (./read-ahead.ts).
 * @example router.openapi(defineRoute({ method: 'get', path: '/me', middleware: [auth()] as const, ... }), handler)
 */
export function auth<A, R>(options: { ahead?: ReadAhead<A, R> } = {}) {
  const { ahead } = options;
  return withDocs(
    createMiddleware<{ Bindings: Env; Variables: SessionVariables & DatabaseVariables & AccountReaderVariables }>(
      async (c, next) => {
        const token = c.req.header('x-auth-token');
        if (!token) throw plainTextError(401, ACCESS_TEXT.noToken);
        const verified = await claimsOrInvalid(c.env, token);
        const args = ahead?.argsOf(c.req.param(), verified.claims);
        if (ahead && args !== undefined) {
          const [account, answer] = await readAccountWith(
            c.var.db,
            verified,
            c.var.readAccount,
            ahead.query.with(args),
          );
          if (!account) throw plainTextError(400, ACCESS_TEXT.invalidToken);
          refuseWhileSuspended(account, c.req);
          ahead.keep(c.req.raw, args, answer);
          c.set('account', account);
        } else c.set('account', await acceptedAccount(c.var, verified, c.req));
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
