import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { ApiError } from '../http/errors';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

// Key sets are cached per URL for the life of the isolate: jose refetches on an unknown
// key id (at most once per cooldown), so rotated keys are still picked up.
const keySets = new Map<string, KeySet>();

function keySetFor(url: string): KeySet {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    keySets.set(url, keySet);
  }
  return keySet;
}

export interface IdentityProvider {
  label: string;
  jwksUrl: string;
  issuers: string[];
  audiences: string[];
}

function reason(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'the token was issued for another client';
    if (err.claim === 'iss') return 'the token was not issued by the expected issuer';
    return `claim "${err.claim}" is not valid`;
  }
  if (err instanceof errors.JWKSNoMatchingKey) return 'the token was signed with an unknown key';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  return 'the token is malformed';
}

/**
 * Verifies an identity provider's RS256 ID token against its published keys, issuer and
 * our client ids. Failures are 401 with the reason; an unreachable key server is 502.
 */
export async function verifyIdentityToken(token: string, provider: IdentityProvider): Promise<JWTPayload> {
  if (!provider.audiences.length) {
    throw new ApiError(500, `Server misconfigured: no client ids are set for ${provider.label} sign-in.`);
  }
  try {
    const { payload } = await jwtVerify(token, keySetFor(provider.jwksUrl), {
      issuer: provider.issuers,
      audience: provider.audiences,
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    return payload;
  } catch (err) {
    // Non-JOSE errors are fetch failures; a bare JOSEError is jose's "key set answered non-200".
    const keyServerFailed =
      !(err instanceof errors.JOSEError) ||
      err.constructor === errors.JOSEError ||
      err instanceof errors.JWKSTimeout ||
      err instanceof errors.JWKSInvalid;
    if (keyServerFailed) {
      console.error(`${provider.label} key set unavailable: ${(err as Error).message}`);
      throw new ApiError(502, `Could not fetch ${provider.label}'s signing keys to verify the token.`);
    }
    throw new ApiError(401, `Invalid ${provider.label} token: ${reason(err)}.`);
  }
}
