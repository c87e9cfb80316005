import { z } from '@hono/zod-openapi';
import { jwtVerify, SignJWT } from 'jose';
import type { UserDoc } from '../db/documents';

/**
 * The session token's claims, exactly as the Live clients decode them. No `exp`: the Live
 * contract has unlimited tokens. Tokens minted by the previous service also carry `iat`,
 * which is accepted and ignored.
 */
export const TokenClaims = z.object({
  _id: z.string().regex(/^[0-9a-f]{24}$/),
  name: z.string(),
  email: z.string(),
  imageUri: z.string(),
  role: z.literal('admin').nullable(),
});
export type TokenClaims = z.infer<typeof TokenClaims>;

const ALGORITHM = 'HS256';
const encoder = new TextEncoder();

export function claimsFor(user: Pick<UserDoc, '_id' | 'name' | 'email' | 'imageUri' | 'role'>): TokenClaims {
  return {
    _id: user._id.toHexString(),
    name: user.name,
    email: user.email,
    imageUri: user.imageUri ?? '',
    role: user.role === 'admin' ? 'admin' : null,
  };
}

export function signSessionToken(claims: TokenClaims, secret: string): Promise<string> {
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' }).sign(encoder.encode(secret));
}

/**
 * Verifies signature and claim shape. Only HS256 is accepted, so `alg: none` and
 * public-key algorithms (the classic key-confusion attack) fail here.
 * Returns null for any token that is not one of ours.
 */
export async function verifySessionToken(token: string, secret: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: [ALGORITHM] });
    const claims = TokenClaims.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch {
    return null;
  }
}
