import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { describeError, logEvent } from '../../platform/ops/log-line';

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

/** A verified token's claims, or why it was refused: `rejected` is the caller's fault, `keys-unavailable` the provider's. */
export type IdentityTokenOutcome =
  | { ok: true; payload: JWTPayload }
  | { ok: false; problem: 'rejected'; reason: string }
  | { ok: false; problem: 'keys-unavailable' };

/** Verifies an identity provider's RS256 ID token against its published keys, issuer and our client ids. */
export async function verifyIdentityToken(token: string, provider: IdentityProvider): Promise<IdentityTokenOutcome> {
  try {
    const { payload } = await jwtVerify(token, keySetFor(provider.jwksUrl), {
      issuer: provider.issuers,
      audience: provider.audiences,
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    return { ok: true, payload };
  } catch (err) {
    // Non-JOSE errors are fetch failures; a bare JOSEError is jose's "key set answered non-200".
    const keyServerFailed =
      !(err instanceof errors.JOSEError) ||
      err.constructor === errors.JOSEError ||
      err instanceof errors.JWKSTimeout ||
      err instanceof errors.JWKSInvalid;
    if (keyServerFailed) {
      logEvent('sign-in.key-set.unavailable', { provider: provider.label, error: describeError(err) });
      return { ok: false, problem: 'keys-unavailable' };
    }
    return { ok: false, problem: 'rejected', reason: reason(err) };
  }
}
