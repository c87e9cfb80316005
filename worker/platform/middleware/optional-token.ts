import type { Env } from '../env';
import { textResponse } from '../http/openapi';
import { nameRiderInScope } from '../ops/request-scope';
import { ACCESS_TEXT } from '../tokens/access-text';
import { claimsOrInvalid, TOKEN_EXPIRED_RESPONSE } from '../tokens/claims';
import { type Caller, callerOf } from '../tokens/service';
import { acceptedAccount, type CheckVariables } from './admit-caller';
import { SUSPENDED_RESPONSE } from './suspended';

/** Public routes that read as the caller when `x-auth-token` is sent. */
export const PUBLIC_OR_TOKEN: Record<string, string[]>[] = [{}, { 'x-auth-token': [] }];

/** What a present token can be refused with on such a route: the auth check's answers (see optionalCaller). */
export const OPTIONAL_TOKEN_REFUSALS = {
  400: textResponse([ACCESS_TEXT.invalidToken]),
  401: TOKEN_EXPIRED_RESPONSE,
  403: SUSPENDED_RESPONSE,
};

/**
 * The caller behind an optional `x-auth-token`: none sent reads as the public (null); one sent is checked as the
 * auth check checks it, so a client whose session ended learns it rather than silently reading as the public:
 * unverifiable, or its account gone or its tokens revoked: 400 `Invalid token.`; an opt-in token past its exp:
 * 401 JSON `Token expired.`; a suspended account: 403 JSON `Account suspended.`, as behind the auth check. The rider
 * it finds is named on the request's log line.
 */
export async function optionalCaller(
  // The parts of a route's context it reads, so any router's context will do.
  c: {
    env: Env;
    var: CheckVariables;
    req: { method: string; path: string; header(name: 'x-auth-token'): string | undefined };
  },
): Promise<Caller | null> {
  const token = c.req.header('x-auth-token');
  if (!token) return null;
  const verified = await claimsOrInvalid(c.env, token);
  const caller = callerOf(await acceptedAccount(c.var, verified, c.req));
  nameRiderInScope(caller.userId.toHexString());
  return caller;
}
