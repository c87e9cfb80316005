import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { registerAdmin } from '../../support/accounts';
import { publishKeySet, type SigningKey, signIdToken } from '../../support/identity-keys';
import { type Api, createApi } from '../../support/worker-api';

let api: Api;
let google: SigningKey;
let apple: SigningKey;
let stranger: SigningKey;

beforeAll(async () => {
  const [g, a, s] = await Promise.all(
    ['google', 'apple', 'stranger'].map((name) => publishKeySet(env.STAND_INS_URL, `${name}-${crypto.randomUUID()}`)),
  );
  [google, apple, stranger] = [g!.keys[0]!, a!.keys[0]!, s!.keys[0]!];
  api = createApi('identity-proof', { GOOGLE_JWKS_URL: g!.url, APPLE_JWKS_URL: a!.url });
});

const ip = () => `10.78.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

interface ProviderAccount {
  _id: string;
  email: string;
  token: string;
  sub: string;
}

const googleClaims = (email: string, sub: string) => ({
  iss: 'https://accounts.google.com',
  aud: 'web-client.apps.googleusercontent.com',
  sub,
  email,
  email_verified: true,
});
const appleClaims = (email: string, sub: string) => ({
  iss: 'https://appleid.apple.com',
  aud: 'com.example.rider',
  sub,
  email,
  email_verified: 'true',
});

async function googleAccount(): Promise<ProviderAccount> {
  const email = `google-only-${crypto.randomUUID()}@example.com`;
  const sub = `g-${crypto.randomUUID()}`;
  const idToken = await signIdToken(google, googleClaims(email, sub));
  const res = await api.fetch('/api/auth/google', { method: 'POST', json: { idToken } });
  const body = await res.json<{ token: string; user: { _id: string } }>();
  return { _id: body.user._id, email, token: body.token, sub };
}

async function appleAccount(): Promise<ProviderAccount> {
  const email = `${crypto.randomUUID()}@privaterelay.appleid.com`;
  const sub = `001.${crypto.randomUUID()}`;
  const identityToken = await signIdToken(apple, appleClaims(email, sub));
  const res = await api.fetch('/api/auth/apple', { method: 'POST', json: { identityToken } });
  const body = await res.json<{ token: string; user: { _id: string } }>();
  return { _id: body.user._id, email, token: body.token, sub };
}

const setPassword = (account: { token: string }, json: Record<string, unknown>) =>
  api.fetch('/api/users/me/password', {
    method: 'PUT',
    headers: { 'x-auth-token': account.token, 'cf-connecting-ip': ip() },
    json: { newPassword: 'a first password', ...json },
  });
const changeEmail = (account: { _id: string }, token: string, json: Record<string, unknown>) =>
  api.fetch(`/api/users/${account._id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': ip() },
    json: { email: `moved-${crypto.randomUUID()}@example.com`, ...json },
  });
const signIn = (email: string) =>
  api.fetch('/api/auth', {
    method: 'POST',
    headers: { 'cf-connecting-ip': ip() },
    json: { email, password: 'a first password' },
  });

const googleProof = async (account: ProviderAccount, key = google) => ({
  identityProof: { provider: 'google', idToken: await signIdToken(key, googleClaims(account.email, account.sub)) },
});

describe('setting a first password on an account that signs in with Google or Apple only', () => {
  it('is refused with a 400 naming identityProof when only the session token is sent', async () => {
    const account = await googleAccount();
    const res = await setPassword(account, {});
    expect(res.status).toBe(400);
    const body = await res.json<{ error: string; details: { field: string }[] }>();
    expect(body.error).toContain('identityProof');
    expect(body.details).toEqual([expect.objectContaining({ field: 'identityProof' })]);
    expect((await signIn(account.email)).status).toBe(400);
  });

  it('is set with a fresh Google ID token for the account', async () => {
    const account = await googleAccount();
    const res = await setPassword(account, await googleProof(account));
    expect(res.status).toBe(200);
    expect((await signIn(account.email)).status).toBe(200);
  });

  it('is set with a fresh Apple identity token for the account', async () => {
    const account = await appleAccount();
    const idToken = await signIdToken(apple, appleClaims(account.email, account.sub));
    const res = await setPassword(account, { identityProof: { provider: 'apple', idToken } });
    expect(res.status).toBe(200);
    expect((await signIn(account.email)).status).toBe(200);
  });

  it("refuses with a 400 another account's ID token, a token older than the proof's age and one that does not verify", async () => {
    const account = await googleAccount();
    const other = await googleAccount();
    const someoneElse = await setPassword(account, await googleProof(other));
    expect(someoneElse.status).toBe(400);
    expect((await someoneElse.json<{ error: string }>()).error).toContain('another account');

    const issuedAt = Math.floor(Date.now() / 1000) - LIMITS.identityProofMaxAgeSeconds - 60;
    const stale = await new (await import('jose')).SignJWT(googleClaims(account.email, account.sub))
      .setProtectedHeader({ alg: 'RS256', kid: google.kid })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 3600)
      .sign(google.privateKey);
    const old = await setPassword(account, { identityProof: { provider: 'google', idToken: stale } });
    expect(old.status).toBe(400);
    expect((await old.json<{ error: string }>()).error).toContain('minutes ago');

    const unknownKey = await setPassword(account, await googleProof(account, stranger));
    expect(unknownKey.status).toBe(400);
    const apple = await setPassword(account, {
      identityProof: { provider: 'apple', idToken: (await googleProof(account)).identityProof.idToken },
    });
    expect(apple.status).toBe(400);
    expect((await signIn(account.email)).status).toBe(400);
  });

  it('refuses identityProof on an account that has a password: currentPassword proves that one', async () => {
    const account = await googleAccount();
    const first = await setPassword(account, await googleProof(account));
    const { token } = await first.json<{ token: string }>();
    const res = await setPassword({ token }, { currentPassword: 'a first password', ...(await googleProof(account)) });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain('identityProof');
  });
});

describe('changing the address of an account that signs in with Google or Apple only', () => {
  it('needs a fresh ID token for the account from its owner; an admin needs none', async () => {
    const account = await googleAccount();
    const bare = await changeEmail(account, account.token, {});
    expect(bare.status).toBe(400);
    expect((await bare.json<{ error: string }>()).error).toContain('identityProof');
    expect((await changeEmail(account, account.token, await googleProof(account))).status).toBe(200);

    const another = await googleAccount();
    const admin = await registerAdmin(api);
    expect((await changeEmail(another, admin.token, {})).status).toBe(200);
  });
});
