import { calculateJwkThumbprint, importJWK, type JWK, SignJWT } from 'jose';
import { requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { MissingSettingError } from '../../platform/setting-error';

const ALG = 'ES256';
const NOT_A_KEY = 'must be a private P-256 JWK as JSON ({"kty":"EC","crv":"P-256","x":…,"y":…,"d":…})';

interface SigningKey {
  privateJwk: JWK;
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; kid: string; alg: typeof ALG; use: 'sig' };
}

/** POLICY_SIGNING_KEY read and checked; its `kid` is the key's own if set, else its RFC 7638 thumbprint. */
async function signingKey(env: Env): Promise<SigningKey> {
  const raw = requireSetting(env, 'POLICY_SIGNING_KEY');
  let jwk: JWK;
  try {
    jwk = JSON.parse(raw);
  } catch {
    throw new MissingSettingError('POLICY_SIGNING_KEY', NOT_A_KEY);
  }
  const { kty, crv, x, y, d } = jwk ?? {};
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y || !d) throw new MissingSettingError('POLICY_SIGNING_KEY', NOT_A_KEY);
  const kid = jwk.kid ?? (await calculateJwkThumbprint({ kty, crv, x, y }));
  return { privateJwk: { kty, crv, x, y, d }, publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, alg: ALG, use: 'sig' } };
}

/** The public half as a JSON Web Key Set, for clients to verify signed policies with. */
export async function publicKeySet(env: Env) {
  return { keys: [(await signingKey(env)).publicJwk] };
}

/** A compact JWS of the policy, valid LIMITS.versionPolicy.signedTtlSeconds from `now`. */
export async function signPolicy(
  env: Env,
  policy: Record<string, unknown>,
  now: Date,
): Promise<{ signature: string; expiresAt: Date }> {
  const key = await signingKey(env);
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + LIMITS.versionPolicy.signedTtlSeconds;
  let privateKey: CryptoKey | Uint8Array;
  try {
    privateKey = await importJWK(key.privateJwk, ALG);
  } catch {
    throw new MissingSettingError('POLICY_SIGNING_KEY', NOT_A_KEY);
  }
  const signature = await new SignJWT({ policy })
    .setProtectedHeader({ alg: ALG, kid: key.publicJwk.kid, typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(privateKey);
  return { signature, expiresAt: new Date(expiresAt * 1000) };
}
