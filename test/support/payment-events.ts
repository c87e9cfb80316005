import type { Api } from './worker-api';

const encoder = new TextEncoder();

/** Lowercase hex HMAC-SHA256 of `body`, as the payment provider signs it (product decisions). */
export async function sign(body: string, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface PaymentEventFields {
  id?: string;
  type?: string;
  created?: string;
  userId: string;
  status?: string;
  interval?: string;
  renewsAt?: string | null;
}

let counter = 0;

/** A provider event in the documented shape; a fresh id unless one is given. */
export function paymentEvent(fields: PaymentEventFields) {
  counter += 1;
  return {
    id: fields.id ?? `evt_${counter}_${crypto.randomUUID().slice(0, 8)}`,
    type: fields.type ?? 'subscription.activated',
    created: fields.created ?? '2026-11-22T10:00:00Z',
    data: {
      userId: fields.userId,
      plan: 'premium',
      interval: fields.interval ?? 'month',
      status: fields.status ?? 'active',
      ...(fields.renewsAt !== undefined ? { renewsAt: fields.renewsAt } : { renewsAt: '2026-12-22T10:00:00Z' }),
    },
  };
}

/** Posts a raw body to the webhook; signed with the test secret unless `signature` is given (null: no header). */
export async function deliver(api: Api, body: string | object, signature?: string | null): Promise<Response> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const header = signature === undefined ? await sign(raw, api.env.PAYMENT_WEBHOOK_SECRET!) : signature;
  return api.fetch('/api/webhooks/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'x-signature': header }) },
    body: raw,
  });
}
