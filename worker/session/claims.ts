import { requireSetting } from '../config';
import type { Env } from '../env';
import { plainTextError } from '../http/errors';
import { ACCESS_TEXT } from './access-text';
import { type TokenClaims, verifySessionToken } from './token';

/** The claims of a session token, or the Live 400 `Invalid token.` that every check answers. */
export async function claimsOrInvalid(env: Env, token: string): Promise<TokenClaims> {
  const claims = await verifySessionToken(token, requireSetting(env, 'JWT_SECRET'));
  if (!claims) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  return claims;
}
