// http_ece ships no types; the stand-in uses only its decrypt (RFC 8188 aes128gcm, RFC 8291 key agreement).
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(
    buffer: Buffer,
    params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string; dh?: string },
  ): Buffer;
}
