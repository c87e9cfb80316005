// Token formats per transport (issue 12): checked when a client registers and again before every send.

const EXPO_TOKEN = /^Expo(nent)?PushToken\[[^\]\s]+\]$/;

/** An Expo push token, `ExponentPushToken[…]` or `ExpoPushToken[…]`: the only address the `gateway` transport takes. */
export const isExpoPushToken = (token: string) => EXPO_TOKEN.test(token);

/** APNs device tokens are hex, FCM registration tokens letters, digits, `:`, `_` and `-`. */
export const isNativeDeviceToken = (token: string) => /^[A-Za-z0-9:_-]{16,}$/.test(token);

function base64UrlBytes(text: string): number | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  return Math.floor((bare.length * 3) / 4);
}

/** A web push P-256 public key: 65 bytes, uncompressed point (RFC 8291). */
export const isP256dhKey = (key: string) => base64UrlBytes(key) === 65 && key.startsWith('B');

/** A web push auth secret: 16 bytes (RFC 8291). */
export const isAuthSecret = (secret: string) => base64UrlBytes(secret) === 16;

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An http endpoint on this machine: a local push-service stand-in (development and tests only). */
export function isLocalPushEndpoint(endpoint: string): boolean {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** Push services only take https endpoints; `allowLocal` (WEB_PUSH_LOCAL_ENDPOINTS) adds http ones on this machine. */
export function isPushEndpoint(endpoint: string, allowLocal = false): boolean {
  try {
    return new URL(endpoint).protocol === 'https:' || (allowLocal && isLocalPushEndpoint(endpoint));
  } catch {
    return false;
  }
}

/** Whether this deployment takes local http endpoints (`WEB_PUSH_LOCAL_ENDPOINTS=allow`: `npm run dev`, the tests). */
export const allowsLocalEndpoints = (env: { WEB_PUSH_LOCAL_ENDPOINTS?: string }) =>
  env.WEB_PUSH_LOCAL_ENDPOINTS?.trim() === 'allow';

/** A stored web push subscription the sender can address: an allowed endpoint and well-formed keys. */
export const isSendableWebSubscription = (
  token: { endpoint?: string; keys?: { p256dh: string; auth: string } },
  allowLocal: boolean,
) =>
  !!token.endpoint &&
  !!token.keys &&
  isPushEndpoint(token.endpoint, allowLocal) &&
  isP256dhKey(token.keys.p256dh) &&
  isAuthSecret(token.keys.auth);
