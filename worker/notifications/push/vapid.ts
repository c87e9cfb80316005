import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import type { SettingName } from '../../platform/setting-error';
import { base64UrlBytes, toBase64Url } from './base64url';

// VAPID (RFC 8292) on WebCrypto: an ES256 JWT naming the push service's origin, signed with our key pair. The
// message encryption beside it is worker/notifications/push/aes128gcm.ts.

/** The key pair and contact web pushes are signed with. */
export interface VapidConfig {
  /** Uncompressed P-256 point, base64url (what browsers subscribe with). */
  publicKey: string;
  /** The private scalar d, base64url. */
  privateKey: string;
  /** `mailto:` or `https:` contact. */
  subject: string;
}

const missing = (name: SettingName, problem = 'is not set') =>
  `Web push is off: ${name} ${problem}. Set it in .dev.vars locally (npm run setup writes it) or with \`wrangler secret put ${name}\`.`;

const isBase64Url = (text: string) => /^[A-Za-z0-9_-]+={0,2}$/.test(text);

/**
 * The VAPID settings, or why web push cannot be sent (naming the setting), without throwing: a missing key
 * turns web sends off, never the Expo sends beside them.
 */
export function readVapid(env: Env): VapidConfig | { problem: string } {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.VAPID_PRIVATE_KEY?.trim();
  const subject = env.VAPID_SUBJECT?.trim();
  if (!publicKey) return { problem: missing('VAPID_PUBLIC_KEY') };
  if (!isBase64Url(publicKey) || base64UrlBytes(publicKey).length !== 65 || base64UrlBytes(publicKey)[0] !== 4)
    return { problem: missing('VAPID_PUBLIC_KEY', 'is not a base64url uncompressed P-256 point (65 bytes)') };
  if (!privateKey) return { problem: missing('VAPID_PRIVATE_KEY') };
  if (!isBase64Url(privateKey) || base64UrlBytes(privateKey).length !== 32)
    return { problem: missing('VAPID_PRIVATE_KEY', 'is not a base64url P-256 private scalar (32 bytes)') };
  if (!subject) return { problem: missing('VAPID_SUBJECT') };
  if (!/^(mailto:.+@.+|https:\/\/.+)$/.test(subject))
    return { problem: missing('VAPID_SUBJECT', 'must be a mailto: or https: contact, e.g. mailto:push@example.com') };
  return { publicKey, privateKey, subject };
}

// Per isolate: the imported key, and one JWT per push service origin reused until it nears its expiry
// (RFC 8292 §2 allows reuse), so a run of 10,000 pushes signs a handful of JWTs, not 10,000.
const signingKeys = new Map<string, Promise<CryptoKey>>();
const jwts = new Map<string, { jwt: string; exp: number }>();

function signingKey(config: VapidConfig): Promise<CryptoKey> {
  const cacheKey = `${config.publicKey}.${config.privateKey}`;
  let key = signingKeys.get(cacheKey);
  if (!key) {
    const point = base64UrlBytes(config.publicKey);
    key = crypto.subtle.importKey(
      'jwk',
      {
        kty: 'EC',
        crv: 'P-256',
        x: toBase64Url(point.slice(1, 33)),
        y: toBase64Url(point.slice(33, 65)),
        d: config.privateKey,
      },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['sign'],
    );
    key.catch(() => signingKeys.delete(cacheKey));
    signingKeys.set(cacheKey, key);
  }
  return key;
}

const jsonPart = (value: object) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));

/** An ES256 JWT for `aud` (the push service's origin), `exp` jwtLifetimeSeconds ahead, `sub` the contact. */
export async function signVapidJwt(config: VapidConfig, audience: string, nowSeconds: number): Promise<string> {
  const exp = nowSeconds + LIMITS.webPush.jwtLifetimeSeconds;
  const signingInput = `${jsonPart({ typ: 'JWT', alg: 'ES256' })}.${jsonPart({ aud: audience, exp, sub: config.subject })}`;
  // WebCrypto's ECDSA signature is already the raw r||s form JWS wants (RFC 7518 §3.4).
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    await signingKey(config),
    new TextEncoder().encode(signingInput),
  );
  return `${signingInput}.${toBase64Url(new Uint8Array(signature))}`;
}

/** `Authorization: vapid t=…, k=…` (RFC 8292 §3) for a push to `endpoint`. */
export async function vapidAuthorization(config: VapidConfig, endpoint: string, now = Date.now()): Promise<string> {
  const audience = new URL(endpoint).origin;
  const nowSeconds = Math.floor(now / 1000);
  const cacheKey = `${config.publicKey}|${config.subject}|${audience}`;
  const cached = jwts.get(cacheKey);
  let jwt = cached && cached.exp - nowSeconds > LIMITS.webPush.jwtRenewBeforeSeconds ? cached.jwt : undefined;
  if (!jwt) {
    jwt = await signVapidJwt(config, audience, nowSeconds);
    jwts.set(cacheKey, { jwt, exp: nowSeconds + LIMITS.webPush.jwtLifetimeSeconds });
  }
  return `vapid t=${jwt}, k=${config.publicKey}`;
}
