import { SignJWT } from 'jose';
import type { Api } from './worker-api';

export interface OptInSession {
  _id: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  expiresIn: number;
}

/** Registers an account that opts into expiring tokens (x-session-mode: refresh). */
export async function registerOptIn(api: Api, device = 'RiderApp/3.1 (iOS 18)'): Promise<OptInSession> {
  const email = `opt-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse';
  const res = await api.fetch('/api/users', {
    method: 'POST',
    headers: { 'x-session-mode': 'refresh', 'user-agent': device },
    json: { name: 'Opt In', email, password },
  });
  if (res.status !== 201) throw new Error(`opt-in register failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{ token: string; refreshToken: string; expiresIn: number; user: { _id: string } }>();
  return { _id: body.user._id, email, password, ...body };
}

/** A second opt-in sign-in of the same account: a new session. */
export async function signInOptIn(api: Api, account: { email: string; password: string }, device = 'RiderWeb/1.0') {
  const res = await api.fetch('/api/auth', {
    method: 'POST',
    headers: {
      'x-session-mode': 'refresh',
      'user-agent': device,
      'cf-connecting-ip': `10.9.${Math.floor(Math.random() * 250)}.1`,
    },
    json: { email: account.email, password: account.password },
  });
  if (res.status !== 200) throw new Error(`opt-in sign-in failed: ${res.status} ${await res.text()}`);
  return res.json<{ token: string; refreshToken: string; expiresIn: number }>();
}

export const refresh = (api: Api, refreshToken: string) =>
  api.fetch('/api/auth/refresh', { method: 'POST', json: { refreshToken } });

/** Signs a token with this secret, as a test-side forger or an old deployment would. */
export const signWith = (secret: string, payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header })
    .sign(new TextEncoder().encode(secret));

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
