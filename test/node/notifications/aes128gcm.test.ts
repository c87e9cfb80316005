/// <reference path="../../support/stand-ins/http-ece.d.ts" />
import { createECDH, randomBytes } from 'node:crypto';
import * as ece from 'http_ece';
import { describe, expect, it } from 'vitest';
import {
  encryptPush,
  MAX_PLAINTEXT_BYTES,
  subscriptionKeysProblem,
} from '../../../worker/notifications/push/aes128gcm';

// Our aes128gcm encryption read back by Mozilla's http_ece, an implementation of RFC 8188/8291 of its own.

function browser() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

const decrypt = (body: Uint8Array, receiver: ReturnType<typeof browser>) =>
  ece.decrypt(Buffer.from(body), {
    version: 'aes128gcm',
    privateKey: receiver.ecdh,
    authSecret: receiver.auth.toString('base64url'),
  });

describe('web push encryption (aes128gcm)', () => {
  it('is read by an independent implementation, with the RFC 8188 header of one 4096-octet record', async () => {
    const receiver = browser();
    const message = new TextEncoder().encode(JSON.stringify({ title: 'Kim', body: 'kickflip landed ✓' }));
    const body = await encryptPush(receiver.keys, message);
    expect(decrypt(body, receiver).toString('utf8')).toBe(new TextDecoder().decode(message));
    const view = new DataView(body.buffer, body.byteOffset);
    expect(view.getUint32(16)).toBe(4096);
    expect(body[20]).toBe(65);
    expect(body[21]).toBe(0x04);
    // Unpadded: header, message, delimiter, tag.
    expect(body.byteLength).toBe(86 + message.byteLength + 1 + 16);
  });

  it('uses a fresh key pair and salt for every message', async () => {
    const receiver = browser();
    const message = new TextEncoder().encode('same text');
    const [a, b] = await Promise.all([encryptPush(receiver.keys, message), encryptPush(receiver.keys, message)]);
    expect(Buffer.from(a.subarray(0, 16)).equals(Buffer.from(b.subarray(0, 16)))).toBe(false);
    expect(Buffer.from(a.subarray(21, 86)).equals(Buffer.from(b.subarray(21, 86)))).toBe(false);
    expect(decrypt(a, receiver).toString()).toBe('same text');
    expect(decrypt(b, receiver).toString()).toBe('same text');
  });

  it('fills the 4096 octets a push service must accept, and refuses one octet more', async () => {
    const receiver = browser();
    const largest = await encryptPush(receiver.keys, new Uint8Array(MAX_PLAINTEXT_BYTES).fill(97));
    expect(largest.byteLength).toBe(4096);
    expect(decrypt(largest, receiver).byteLength).toBe(MAX_PLAINTEXT_BYTES);
    await expect(encryptPush(receiver.keys, new Uint8Array(MAX_PLAINTEXT_BYTES + 1))).rejects.toThrow(
      /maximum is 3993/,
    );
  });

  it('names what is wrong with malformed subscription keys', async () => {
    const { keys } = browser();
    expect(subscriptionKeysProblem(keys)).toBeNull();
    expect(subscriptionKeysProblem({ ...keys, auth: randomBytes(12).toString('base64url') })).toBe(
      'auth is not 16 bytes',
    );
    const compressed = Buffer.from(keys.p256dh, 'base64url').subarray(0, 33);
    expect(subscriptionKeysProblem({ ...keys, p256dh: compressed.toString('base64url') })).toMatch(
      /uncompressed P-256/,
    );
    await expect(encryptPush({ ...keys, auth: 'AAAA' }, new Uint8Array(1))).rejects.toThrow(/auth is not 16 bytes/);
  });
});
