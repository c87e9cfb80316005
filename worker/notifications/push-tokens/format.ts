import { type WebEndpointRules, webEndpointProblem } from './web-endpoint';

// Token formats per transport: checked when a client registers and again before every send.

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

/** A stored web push subscription the sender can address: an endpoint at a push service and well-formed keys. */
export const isSendableWebSubscription = (
  token: { endpoint?: string; keys?: { p256dh: string; auth: string } },
  rules: WebEndpointRules,
) =>
  !!token.endpoint &&
  !!token.keys &&
  webEndpointProblem(token.endpoint, rules) === null &&
  isP256dhKey(token.keys.p256dh) &&
  isAuthSecret(token.keys.auth);
