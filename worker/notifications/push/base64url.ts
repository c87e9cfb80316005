// Base64url (RFC 4648 §5), padded or not, as web push keys and VAPID tokens are written.

export const base64UrlBytes = (text: string) => {
  const bare = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(bare + '='.repeat((4 - (bare.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

export const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
