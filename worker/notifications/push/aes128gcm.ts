import { concatBytes } from '../../platform/bytes';
import { base64UrlBytes } from './base64url';

// The `aes128gcm` content coding of a web push message (RFC 8291 on RFC 8188), on WebCrypto. Written here because
// the maintained WebCrypto library for it requires Node 22, older releases speak the superseded `aesgcm` draft, and
// `web-push` pulls its Node crypto and proxy stack into the bundle for these few steps. An independent
// implementation (Mozilla's http_ece) decrypts every test push: test/support/stand-ins/web-push.ts.

/** One record of 4096 octets: a push service only has to accept 4096 octets in all (RFC 8030 §7.2). */
const RECORD_SIZE = 4096;
/** RFC 8188 §2.1 header: salt (16), record size (4), key id length (1), the sender's public key (65). */
const HEADER_SIZE = 16 + 4 + 1 + 65;
/** The padding delimiter and the GCM tag share the record with the message. */
export const MAX_PLAINTEXT_BYTES = RECORD_SIZE - HEADER_SIZE - 1 - 16;

/** The receiving browser's keys, as its subscription gives them (base64url). */
export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
}

/** WebCrypto's key type, named the same way under the Worker's and Node's type libraries. */
type Key = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const text = (value: string) => new TextEncoder().encode(value);

/** HKDF-SHA-256 (RFC 5869) of `length` octets: at most 32 here, so one expand block. */
async function hkdf(salt: Uint8Array, secret: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, length * 8);
  return new Uint8Array(bits);
}

/** Why these keys cannot receive a push, or null. */
export function subscriptionKeysProblem(keys: SubscriptionKeys): string | null {
  const publicKey = base64UrlBytes(keys.p256dh);
  if (publicKey.byteLength !== 65 || publicKey[0] !== 0x04) return 'p256dh is not an uncompressed P-256 point';
  if (base64UrlBytes(keys.auth).byteLength !== 16) return 'auth is not 16 bytes';
  return null;
}

/**
 * The request body of one push: the RFC 8188 header then the message in a single record, unpadded (the push
 * service's bandwidth and our CPU go to the message only). Throws when the keys are malformed or the message
 * is longer than one record holds.
 */
export async function encryptPush(keys: SubscriptionKeys, message: Uint8Array): Promise<Uint8Array> {
  const problem = subscriptionKeysProblem(keys);
  if (problem) throw new Error(`The subscription's ${problem}`);
  if (message.byteLength > MAX_PLAINTEXT_BYTES)
    throw new Error(`Payload is ${message.byteLength} bytes, the maximum is ${MAX_PLAINTEXT_BYTES}`);
  const receiverKeyBytes = base64UrlBytes(keys.p256dh);
  const authSecret = base64UrlBytes(keys.auth);
  const receiverKey = await crypto.subtle.importKey(
    'raw',
    receiverKeyBytes,
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  // A key pair of our own for this message only (RFC 8291 §3.1).
  const sender = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as {
    publicKey: Key;
    privateKey: Key;
  };
  const senderKeyBytes = new Uint8Array((await crypto.subtle.exportKey('raw', sender.publicKey)) as ArrayBuffer);
  const sharedSecret = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: 'ECDH', public: receiverKey } as Parameters<typeof crypto.subtle.deriveBits>[0],
      sender.privateKey,
      256,
    ),
  );
  // RFC 8291 §3.3–3.4: the input keying material binds both public keys and the subscription's auth secret.
  const ikm = await hkdf(
    authSecret,
    sharedSecret,
    concatBytes([text('WebPush: info\0'), receiverKeyBytes, senderKeyBytes]),
    32,
  );
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const contentKey = await hkdf(salt, ikm, text('Content-Encoding: aes128gcm\0'), 16);
  const nonce = await hkdf(salt, ikm, text('Content-Encoding: nonce\0'), 12);
  const aesKey = await crypto.subtle.importKey('raw', contentKey, { name: 'AES-GCM' }, false, ['encrypt']);
  // 0x02 ends the last (here the only) record; the first record's nonce is the derived nonce itself.
  const record = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, aesKey, concatBytes([message, new Uint8Array([0x02])])),
  );
  const recordSize = new Uint8Array(4);
  new DataView(recordSize.buffer).setUint32(0, RECORD_SIZE);
  return concatBytes([salt, recordSize, new Uint8Array([senderKeyBytes.byteLength]), senderKeyBytes, record]);
}
