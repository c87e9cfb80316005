import { LIMITS } from '../../platform/limits';

// A refresh token is `<familyId>.<256 bits>`, base64url. The family id names the session, so a
// spent token of any age is recognised as that session's (RFC 9700 reuse detection).
const encoder = new TextEncoder();

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');

const randomPart = (length: number) => base64url(crypto.getRandomValues(new Uint8Array(length)));

/** A new session's family id and first refresh token. */
export function newRefreshToken(): { familyId: string; token: string } {
  const familyId = randomPart(LIMITS.sessions.familyBytes);
  return { familyId, token: `${familyId}.${randomPart(LIMITS.sessions.tokenBytes)}` };
}

/** The family id a presented token claims, or null for a string that is not shaped like ours. */
export function familyOf(token: string): string | null {
  const match = /^([A-Za-z0-9_-]{16,64})\.[A-Za-z0-9_-]{32,128}$/.exec(token);
  return match ? match[1]! : null;
}

/** The only form stored: SHA-256, hex. */
export async function hashToken(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The successor of a spent token: HMAC-SHA256 of it under REFRESH_TOKEN_SECRET. Deterministic,
 * so a retry within the grace window gets the same successor although no token is kept in the clear.
 */
export async function successorOf(token: string, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(token)));
  return `${familyOf(token)}.${base64url(mac)}`;
}
