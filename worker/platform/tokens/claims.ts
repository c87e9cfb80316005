import { z } from '@hono/zod-openapi';
import type { Env } from '../env';
import { ApiError, plainTextError } from '../http/errors';
import { errorResponse, type textResponse } from '../http/openapi';

type ResponseConfig = ReturnType<typeof textResponse>;

import { ACCESS_TEXT } from './access-text';
import { signingKeys } from './keys';
import { type VerifiedToken, verifyWithKeys } from './token';

/** The opt-in access token's refusal past its `exp` (docs/sessions.md): JSON, so "refresh now" differs from a forged token. */
export const TOKEN_EXPIRED = 'Token expired.';
const EXPIRED_HEADERS = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export const TOKEN_EXPIRED_RESPONSE = errorResponse(
  `JSON {error: "${TOKEN_EXPIRED}"}: an opt-in access token past its exp; refresh it (docs/sessions.md)`,
  z.object({ 'WWW-Authenticate': z.string().optional().describe('Bearer error="invalid_token"') }),
);

/** A check's Live plain-text 401 plus the expired refusal; the header is optional because the Live 401 lacks it. */
export const orExpired = (live: ResponseConfig): ResponseConfig => ({
  description: `${live.description}; or ${TOKEN_EXPIRED_RESPONSE.description}`,
  content: { ...live.content, ...TOKEN_EXPIRED_RESPONSE.content },
  headers: TOKEN_EXPIRED_RESPONSE.headers,
});

/**
 * The verified token, or the Live 400 `Invalid token.` that every check answers; an opt-in
 * token past its `exp` gets 401 `Token expired.` instead. No database read: access tokens are stateless.
 */
export async function claimsOrInvalid(env: Env, token: string): Promise<VerifiedToken> {
  const verified = await verifyWithKeys(token, signingKeys(env));
  if (verified === 'expired') throw new ApiError(401, TOKEN_EXPIRED, { headers: EXPIRED_HEADERS });
  if (!verified) throw plainTextError(400, ACCESS_TEXT.invalidToken);
  return verified;
}
