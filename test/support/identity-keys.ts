import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/**
 * An identity provider's key pair made by the test, with the public half published on the
 * JWKS stand-in under a set name of the test's own.
 */
export async function publishKeySet(
  standInsUrl: string,
  setName: string,
  count = 1,
): Promise<{ url: string; keys: SigningKey[] }> {
  const keys: SigningKey[] = [];
  const jwks = [];
  for (let i = 0; i < count; i++) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = crypto.randomUUID();
    jwks.push({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' });
    keys.push({ kid, privateKey });
  }
  const url = `${standInsUrl}/jwks/${setName}`;
  const res = await fetch(url, { method: 'PUT', body: JSON.stringify({ keys: jwks }) });
  if (res.status !== 204) throw new Error(`could not publish key set: ${res.status}`);
  return { url, keys };
}

export function signIdToken(
  key: SigningKey,
  claims: JWTPayload,
  options: { expiresIn?: string | number; kid?: string } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(key.privateKey);
}
