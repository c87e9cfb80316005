import type { ObjectId } from 'mongodb';
import type { SigningKeys } from '../../platform/tokens/token';

// A short-lived link to an export's file: the route that serves it takes no token (a browser or a download manager
// opens it), so the link carries its own proof: an HMAC over the export, its rider and the expiry.

const encoder = new TextEncoder();

/** What a link proves and until when (epoch seconds). */
export interface LinkFacts {
  exportId: ObjectId;
  riderId: ObjectId;
  expires: number;
}

// The NUL separators and the leading label keep this input from ever equalling another signing input under the same secret.
const signedText = ({ exportId, riderId, expires }: LinkFacts) =>
  `data-export-link\u0000${exportId.toHexString()}\u0000${riderId.toHexString()}\u0000${expires}`;

const hmacKey = (secret: string, use: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [use]);

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The link's signature, base64url, under the current signing secret. */
export async function signLink(keys: SigningKeys, facts: LinkFacts): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(keys.current, 'sign'), encoder.encode(signedText(facts)));
  return base64url(new Uint8Array(mac));
}

/**
 * Whether `signature` proves these facts under the current secret or the previous one (a rotation), compared in
 * constant time by WebCrypto. The expiry is the caller's to check against its clock.
 */
export async function linkSigned(keys: SigningKeys, facts: LinkFacts, signature: string): Promise<boolean> {
  const mac = fromBase64url(signature);
  if (!mac) return false;
  for (const secret of [keys.current, keys.previous]) {
    if (
      secret &&
      (await crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), mac, encoder.encode(signedText(facts))))
    )
      return true;
  }
  return false;
}
