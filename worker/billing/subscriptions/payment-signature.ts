import { createMiddleware } from 'hono/factory';
import { requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { ApiError } from '../../platform/http/errors';
import { errorResponse, withDocs } from '../../platform/http/openapi';

/** The header the payment provider signs with (product decisions, "Subscriptions"). */
export const SIGNATURE_HEADER = 'x-signature';

export const PAYMENT_SIGNATURE_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: SIGNATURE_HEADER,
  description: 'Lowercase hex HMAC-SHA256 of the raw request body, keyed with PAYMENT_WEBHOOK_SECRET.',
} as const;

const BAD_SIGNATURE = 'Missing or invalid x-signature.';
const encoder = new TextEncoder();

/**
 * Lets a request through only when `x-signature` is the HMAC-SHA256 of its exact body bytes,
 * before anything parses the body: an unsigned caller learns nothing, not even validation errors.
 * Failure: 401 JSON; a missing PAYMENT_WEBHOOK_SECRET is the 500 naming it.
 * @example middleware: [paymentSignature()] as const
 */
export function paymentSignature() {
  return withDocs(
    createMiddleware<{ Bindings: Env }>(async (c, next) => {
      const secret = requireSetting(c.env, 'PAYMENT_WEBHOOK_SECRET');
      const signature = hexBytes(c.req.header(SIGNATURE_HEADER) ?? '');
      // Hono caches the bytes, so the JSON validator after this parses the same body.
      const body = await c.req.arrayBuffer();
      if (!signature || !(await verifyHmac(secret, signature, body))) throw new ApiError(401, BAD_SIGNATURE);
      await next();
    }),
    {
      security: [{ 'payment-signature': [] }],
      responses: { 401: errorResponse('The x-signature header is missing or does not sign this body') },
    },
  );
}

/** 32 bytes from exactly 64 lowercase hex digits, else undefined. */
function hexBytes(hex: string): Uint8Array | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g)!, (pair) => Number.parseInt(pair, 16));
}

// WebCrypto's verify compares in constant time, so timing reveals nothing about the expected value.
async function verifyHmac(secret: string, signature: Uint8Array, body: ArrayBuffer): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  return crypto.subtle.verify('HMAC', key, signature, body);
}
