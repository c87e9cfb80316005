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

/** Push services only take https endpoints. */
export function isPushEndpoint(endpoint: string): boolean {
  try {
    return new URL(endpoint).protocol === 'https:';
  } catch {
    return false;
  }
}
