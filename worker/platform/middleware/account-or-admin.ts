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

async function bodyEmail(request: { json(): Promise<unknown> }): Promise<string | undefined> {
  try {
    const body = (await request.json()) as { email?: unknown };
    return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The account-or-admin check, reading `Authorization: Bearer <token>`. Passes when the
 * stored account is an admin, or the claim `_id` equals the path's `:id`. The email rule
 * (claim email equals body email) applies only to routes without an `:id`: on a route that
 * names an account, matching your own email must never open someone else's account.
 * Missing token: 401 `Access denied. No token provided.`; bad token, or one its account no longer accepts
 * (gone, or revoked): 400 `Invalid token.`;
 * otherwise a failed check is 403 `Access denied.`; a suspended account: 403 JSON `Account suspended.`; an opt-in token past its exp: 401 JSON `Token expired.`
 * @example router.openapi(defineRoute({ method: 'delete', path: '/{id}', middleware: [accountOrAdmin()] as const, ... }), handler)
 */
export function accountOrAdmin() {
  return withDocs(
    createMiddleware<{ Bindings: Env; Variables: SessionVariables & DatabaseVariables & AccountReaderVariables }>(
      async (c, next) => {
        const header = c.req.header('authorization') ?? '';
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        if (!match) throw plainTextError(401, ACCESS_TEXT.noToken);
        const verified = await claimsOrInvalid(c.env, match[1]!);
        const claims = verified.claims;
        const account = await acceptedAccount(c.var, verified, c.req);
        const isAdmin = isAdminAccount(account);
        const pathId = c.req.param('id');
        const ownsAccount =
          pathId !== undefined
            ? pathId.toLowerCase() === claims._id
            : (await bodyEmail(c.req)) === claims.email.trim().toLowerCase();
        if (!isAdmin && !ownsAccount) throw plainTextError(403, ACCESS_TEXT.denied);

        c.set('account', account);
        c.set('user', { ...claims, role: isAdmin ? 'admin' : null });
        c.set('sessionId', verified.sessionId);
        countLegacyToken(verified, c);
        await next();
      },
    ),
    {
      security: [{ 'authorization-bearer': [] }],
      responses: {
        401: orExpired(textResponse([ACCESS_TEXT.noToken])),
        400: textResponse([ACCESS_TEXT.invalidToken]),
        403: orSuspended(textResponse([ACCESS_TEXT.denied])),
      },
    },
  );
}
