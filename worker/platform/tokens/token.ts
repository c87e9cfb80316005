import { z } from '@hono/zod-openapi';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { Collections } from '../db/collections';
import { readString } from '../db/stored-values';
import { shownWebUrl } from '../http/web-url';
import { LIMITS } from '../limits';
import { VerifiedTokens } from './verified-tokens';

/** The account as the accounts domain stores it: its `users` collection, declared there. */
type UserDoc = Collections['users'];

/**
 * A descriptive claim (name, email, picture) as the previous service signed it, straight from the stored account:
 * absent, null or not text there when the account's field was. Only `_id` names the account and the account is
 * read again on every check, so such a claim reads as empty text instead of refusing a genuine token.
 */
const DescriptiveClaim = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' ? value : ''));

/**
 * The session token's claims, exactly as the Live clients decode them. No `exp`: the Live
 * contract has unlimited tokens. Tokens minted by the previous service also carry `iat`,
 * which is accepted and ignored. Opt-in tokens add `exp`, `iat` and `sid` beside these five.
 */
export const TokenClaims = z.object({
  _id: z.string().regex(/^[0-9a-f]{24}$/),
  name: DescriptiveClaim,
  email: DescriptiveClaim,
  imageUri: DescriptiveClaim,
  // The stored role decides every check, never this claim; anything but "admin" reads as a rider.
  role: z
    .unknown()
    .optional()
    .transform((value) => (value === 'admin' ? ('admin' as const) : null)),
  /**
   * The account's token version when the token was signed; absent means 0. Only accounts whose tokens were
   * revoked wholesale (an identity provider proved their address) carry it, so every other token keeps the five Live claims.
   */
  tv: z.number().int().positive().optional(),
});
export type TokenClaims = z.infer<typeof TokenClaims>;

/** The secrets that sign (`current`) and still verify (`previous`, during a rotation; docs/sessions.md). */
export interface SigningKeys {
  current: string;
  previous?: string;
}

/** What an opt-in token adds to the five claims: its expiry (seconds since the epoch) and its session's id. */
export interface SessionExtras {
  exp: number;
  sid: string;
}

/** A verified token: its claims and, for an opt-in token, its session id; a legacy token has none. */
export interface VerifiedToken {
  claims: TokenClaims;
  sessionId?: string;
}

const ALGORITHM = 'HS256';
const encoder = new TextEncoder();

export function claimsFor(
  user: Pick<UserDoc, '_id' | 'name' | 'email' | 'imageUri' | 'role' | 'tokenVersion'>,
): TokenClaims {
  return {
    _id: user._id.toHexString(),
    // Text whatever the account holds, so the service's own check accepts every token it signs.
    name: readString(user.name, undefined, true) ?? '',
    email: readString(user.email, undefined, true) ?? '',
    imageUri: shownWebUrl(user.imageUri) ?? '',
    role: user.role === 'admin' ? 'admin' : null,
    ...(user.tokenVersion ? { tv: user.tokenVersion } : {}),
  };
}

/** The version a token was signed at: a token without `tv` (every Live token) counts as version 0. */
export const tokenVersionOf = (claims: TokenClaims): number => claims.tv ?? 0;

/** Key ids by secret: one or two secrets per isolate, each hashed once. */
const keyIds = new Map<string, Promise<string>>();

/** A key id naming the secret without revealing it: the first 64 bits of its SHA-256, base64url. */
export function keyId(secret: string): Promise<string> {
  let id = keyIds.get(secret);
  if (!id) {
    // A rotation leaves old secrets behind: the few kept are dropped together.
    if (keyIds.size >= 8) keyIds.clear();
    id = hashKeyId(secret);
    keyIds.set(secret, id);
  }
  return id;
}

async function hashKeyId(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`kid:${secret}`)));
  return btoa(String.fromCharCode(...digest.slice(0, 8)))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/**
 * Signs the five claims, with `kid` in the header (never a claim). With `extras` (opt-in mode)
 * the token also carries `iat`, `exp` and `sid`; without, the claim set is exactly the Live one.
 */
export async function signSessionToken(claims: TokenClaims, secret: string, extras?: SessionExtras): Promise<string> {
  const jwt = new SignJWT({ ...claims, ...(extras ? { sid: extras.sid } : {}) }).setProtectedHeader({
    alg: ALGORITHM,
    typ: 'JWT',
    kid: await keyId(secret),
  });
  if (extras) jwt.setIssuedAt().setExpirationTime(extras.exp);
  return jwt.sign(encoder.encode(secret));
}

/** The secrets to try, in order: the one the header's `kid` names, else (no or unknown kid) both. */
async function candidates(token: string, keys: SigningKeys): Promise<string[]> {
  const all = keys.previous ? [keys.current, keys.previous] : [keys.current];
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return all;
  }
  for (const secret of all) if (kid === (await keyId(secret))) return [secret];
  return all;
}

/** The tokens this isolate verified: a rider's next request skips the signature, key id and claims parse. */
export const verifiedTokens = new VerifiedTokens<VerifiedToken>(
  LIMITS.sessions.verifiedTokensMax,
  LIMITS.sessions.verifiedTokenTtlMs,
);

/**
 * Verifies signature, expiry and claim shape against the current and previous secrets. Only
 * HS256 is accepted, so `alg: none` and public-key algorithms (key confusion) fail here.
 * 'expired' means a genuine token past its `exp`; null, any token that is not one of ours.
 * A token verified before under the same secrets is answered from memory, its `exp` checked again.
 */
export async function verifyWithKeys(token: string, keys: SigningKeys): Promise<VerifiedToken | 'expired' | null> {
  const known = verifiedTokens.get(token, keys);
  if (known) return known;
  for (const secret of await candidates(token, keys)) {
    try {
      const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: [ALGORITHM] });
      const claims = TokenClaims.safeParse(payload);
      if (!claims.success) return null;
      const sid = typeof payload.sid === 'string' && /^[0-9a-f]{24}$/.test(payload.sid) ? payload.sid : undefined;
      // Frozen: one request's claims are the next one's, so none may change them.
      const verified: VerifiedToken = Object.freeze(
        sid ? { claims: Object.freeze(claims.data), sessionId: sid } : { claims: Object.freeze(claims.data) },
      );
      // A token valid only from `nbf` on is checked each time (none of ours carries it).
      if (payload.nbf === undefined) verifiedTokens.set(token, keys, verified, payload.exp);
      return verified;
    } catch (err) {
      // jose checks `exp` only after the signature verified, so this token is ours.
      if (err instanceof errors.JWTExpired) return 'expired';
    }
  }
  return null;
}

/** The claims of a token signed with this one secret, or null (expired included); for callers without settings. */
export async function verifySessionToken(token: string, secret: string): Promise<TokenClaims | null> {
  const verified = await verifyWithKeys(token, { current: secret });
  return verified && verified !== 'expired' ? verified.claims : null;
}
