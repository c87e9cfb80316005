import { env } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeClaims, register } from '../../support/accounts';
import { publishKeySet, type SigningKey, signIdToken } from '../../support/identity-keys';
import { captureLogLines, eventLines, leakedSecrets } from '../../support/log-lines';
import { type Api, createApi } from '../../support/worker-api';

const WEB = 'web-client.apps.googleusercontent.com';
const ANDROID = 'android-client.apps.googleusercontent.com';

let api: Api;
let key: SigningKey;

beforeAll(async () => {
  const published = await publishKeySet(env.STAND_INS_URL, `google-${crypto.randomUUID()}`);
  key = published.keys[0]!;
  api = createApi('google', { GOOGLE_JWKS_URL: published.url });
});

const claimsFor = (email: string, extra: Record<string, unknown> = {}) => ({
  iss: 'https://accounts.google.com',
  aud: WEB,
  sub: `g-${crypto.randomUUID()}`,
  email,
  email_verified: true,
  name: 'Lizzie Armanto',
  picture: 'https://lh3.example.com/a.png',
  ...extra,
});

const signIn = (idToken: string) => api.fetch('/api/auth/google', { method: 'POST', json: { idToken } });

describe('Google sign-in', () => {
  it('creates the account on first sign-in and records the sign-up', async () => {
    const email = `lizzie-${crypto.randomUUID()}@example.com`;
    const res = await signIn(await signIdToken(key, claimsFor(email)));
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body.isNewUser).toBe(true);
    expect(body.user).toMatchObject({
      name: 'Lizzie Armanto',
      email,
      imageUri: 'https://lh3.example.com/a.png',
      role: null,
    });
    expect(res.headers.get('x-auth-token')).toBe(body.token);
    expect(decodeClaims(body.token)._id).toBe(body.user._id);
    const events = await api.db((db) =>
      db
        .collection('analytics_events')
        .find({ userId: new ObjectId(body.user._id) })
        .toArray(),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ name: 'signup_completed', properties: { method: 'google' } });
  });

  it('updates the profile on a returning sign-in, with any of the three client ids', async () => {
    const email = `returning-${crypto.randomUUID()}@example.com`;
    const first = await (await signIn(await signIdToken(key, claimsFor(email)))).json<any>();
    const res = await signIn(
      await signIdToken(
        key,
        claimsFor(email, { aud: ANDROID, name: 'Lizzie A.', picture: 'https://lh3.example.com/b.png' }),
      ),
    );
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body.isNewUser).toBe(false);
    expect(body.user).toMatchObject({
      _id: first.user._id,
      name: 'Lizzie A.',
      imageUri: 'https://lh3.example.com/b.png',
    });
    const signUps = await api.db((db) =>
      db.collection('analytics_events').countDocuments({ userId: new ObjectId(first.user._id) }),
    );
    expect(signUps).toBe(1);
  });

  it('signs in to an existing password account with the same email', async () => {
    const account = await register(api);
    const res = await signIn(await signIdToken(key, claimsFor(account.email.toUpperCase())));
    expect(res.status).toBe(200);
    expect((await res.json<any>()).user._id).toBe(account._id);
  });

  it('accepts the issuer without scheme too', async () => {
    const res = await signIn(
      await signIdToken(key, claimsFor(`bare-${crypto.randomUUID()}@example.com`, { iss: 'accounts.google.com' })),
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ['wrong audience', { aud: 'someone-else.apps.googleusercontent.com' }, /another client/],
    ['wrong issuer', { iss: 'https://evil.example.com' }, /expected issuer/],
    ['unverified email', { email_verified: false }, /verified email/],
  ])('refuses a token with %s', async (_label, extra, reason) => {
    const res = await signIn(await signIdToken(key, claimsFor(`x-${crypto.randomUUID()}@example.com`, extra)));
    expect(res.status).toBe(401);
    expect((await res.json<{ error: string }>()).error).toMatch(reason);
  });

  it('refuses an expired token', async () => {
    const res = await signIn(
      await signIdToken(key, claimsFor('late@example.com'), { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
    );
    expect(res.status).toBe(401);
    expect((await res.json<{ error: string }>()).error).toMatch(/expired/);
  });

  it('refuses a bad signature', async () => {
    const token = await signIdToken(key, claimsFor('forged@example.com'));
    const [header, payload] = token.split('.');
    const tampered = `${header}.${payload}.${'A'.repeat(342)}`;
    const res = await signIn(tampered);
    expect(res.status).toBe(401);
    expect((await res.json<{ error: string }>()).error).toMatch(/signature/);
  });

  it('refuses an unknown key id', async () => {
    const foreign = (await publishKeySet(env.STAND_INS_URL, `elsewhere-${crypto.randomUUID()}`)).keys[0]!;
    const res = await signIn(await signIdToken(foreign, claimsFor('stranger@example.com')));
    expect(res.status).toBe(401);
    expect((await res.json<{ error: string }>()).error).toMatch(/unknown key/);
  });

  it('refuses garbage with 401 and a missing token with 400', async () => {
    expect((await signIn('not-a-jwt')).status).toBe(401);
    const missing = await api.fetch('/api/auth/google', { method: 'POST', json: {} });
    expect(missing.status).toBe(400);
    expect((await missing.json<any>()).details[0].field).toBe('idToken');
  });

  it('answers 502 when the key set cannot be fetched', async () => {
    const offline = createApi('google-offline', {
      GOOGLE_JWKS_URL: `${env.STAND_INS_URL}/jwks/missing-${crypto.randomUUID()}`,
    });
    const idToken = await signIdToken(key, claimsFor('x@example.com'));
    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await offline.fetch('/api/auth/google', { method: 'POST', json: { idToken } });
    });
    expect(res.status).toBe(502);
    expect(eventLines(lines, 'sign-in.key-set.unavailable')).toEqual([
      expect.objectContaining({
        level: 'error',
        provider: 'Google',
        error: expect.any(String),
        requestId: res.headers.get('x-request-id'),
      }),
    ]);
    expect(leakedSecrets(lines, { idToken })).toEqual([]);
  });
});
