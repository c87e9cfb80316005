import { createMiddleware } from 'hono/factory';
import type { Env } from '../env';
import { plainTextError } from '../http/errors';
import { textResponse, withDocs } from '../http/openapi';
import { ACCESS_TEXT } from '../tokens/access-text';
import { claimsOrInvalid, orExpired } from '../tokens/claims';
import { countLegacyToken } from '../tokens/legacy-usage';
import { isAdminAccount } from '../tokens/service';
import type { AccountReaderVariables } from './account-reader';
import { acceptedAccount } from './admit-caller';
import type { SessionVariables } from './auth';
import type { DatabaseVariables } from './database';
import { orSuspended } from './suspended';

/**
 * Requires a token whose account is an admin *in the store*: the role is read on every
 * request, so revoking it takes effect at once even though tokens never expire.
 * Missing token: 401 `Access denied.`; not admin: 403 `Access denied. Admin only.`; suspended: 403 JSON `Account suspended.`;
 * a token that does not verify, or names an account that is gone or revoked the token: 400 `Invalid token.`
 * An opt-in token past its exp: 401 JSON `Token expired.` (worker/platform/tokens/claims.ts).
 * An unreachable database or missing configuration is not the client's failure: 503 / 500.
 * @example router.openapi(defineRoute({ method: 'post', path: '/', middleware: [admin()] as const, ... }), handler)
 */
export function admin() {
  return withDocs(
    createMiddleware<{ Bindings: Env; Variables: SessionVariables & DatabaseVariables & AccountReaderVariables }>(
      async (c, next) => {
        const token = c.req.header('x-auth-token');
        if (!token) throw plainTextError(401, ACCESS_TEXT.denied);
        const verified = await claimsOrInvalid(c.env, token);
        const claims = verified.claims;
        const account = await acceptedAccount(c.var, verified, c.req);
        if (!isAdminAccount(account)) throw plainTextError(403, ACCESS_TEXT.adminOnly);
        c.set('account', account);
        c.set('user', { ...claims, role: 'admin' });
        c.set('sessionId', verified.sessionId);
        countLegacyToken(verified, c);
        await next();
      },
    ),
    {
      security: [{ 'x-auth-token': [] }],
      responses: {
        401: orExpired(textResponse([ACCESS_TEXT.denied])),
        403: orSuspended(textResponse([ACCESS_TEXT.adminOnly])),
        400: textResponse([ACCESS_TEXT.invalidToken]),
      },
    },
  );
}
