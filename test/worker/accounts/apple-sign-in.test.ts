import { env } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { publishKeySet, type SigningKey, signIdToken } from '../../support/identity-keys';
import { type Api, createApi } from '../../support/worker-api';

let api: Api;
let key: SigningKey;

beforeAll(async () => {
  const published = await publishKeySet(env.STAND_INS_URL, `apple-${crypto.randomUUID()}`);
  key = published.keys[0]!;
  api = createApi('apple', { APPLE_JWKS_URL: published.url });
});

const appleClaims = (sub: string, extra: Record<string, unknown> = {}) => ({
  iss: 'https://appleid.apple.com',
  aud: 'com.example.rider',
  sub,
  ...extra,
});

const signIn = async (claims: Record<string, unknown>, name?: unknown) =>
  api.fetch('/api/auth/apple', {
    method: 'POST',
    json: { identityToken: await signIdToken(key, claims), ...(name !== undefined ? { name } : {}) },
  });

describe('Apple sign-in', () => {
  it('creates an account named "Apple User" when no name is supplied, and stores the subject', async () => {
    const sub = `001.${crypto.randomUUID()}`;
    const email = `${crypto.randomUUID()}@privaterelay.appleid.com`;
    const res = await signIn(appleClaims(sub, { email, email_verified: 'true' }));
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body).toMatchObject({ isNewUser: true, user: { name: 'Apple User', email } });
    const stored = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(body.user._id) }));
    expect(stored!.appleUserId).toBe(sub);
    expect(
      await api.db((db) =>
        db
          .collection('analytics_events')
          .countDocuments({ userId: stored!._id, name: 'signup_completed', 'properties.method': 'apple' }),
      ),
    ).toBe(1);
  });

  it('uses the name supplied on first authorization', async () => {
    const res = await signIn(
      appleClaims(`001.${crypto.randomUUID()}`, { email: `${crypto.randomUUID()}@example.com`, email_verified: true }),
      { givenName: 'Leticia', familyName: 'Bufoni' },
    );
    expect((await res.json<any>()).user.name).toBe('Leticia Bufoni');
  });

  it('finds a returning user by subject when the token carries no email', async () => {
    const sub = `001.${crypto.randomUUID()}`;
    const first = await (
      await signIn(appleClaims(sub, { email: `${crypto.randomUUID()}@example.com`, email_verified: 'true' }))
    ).json<any>();
    const res = await signIn(appleClaims(sub));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isNewUser: false, user: { _id: first.user._id } });
  });

  it('links to an existing account with the same email', async () => {
    const account = await register(api);
    const sub = `001.${crypto.randomUUID()}`;
    const res = await signIn(appleClaims(sub, { email: account.email, email_verified: 'true' }));
    expect(await res.json()).toMatchObject({ isNewUser: false, user: { _id: account._id } });
    const stored = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(account._id) }));
    expect(stored!.appleUserId).toBe(sub);
  });

  it('refuses to link or create by an unverified email', async () => {
    const account = await register(api);
    const res = await signIn(
      appleClaims(`001.${crypto.randomUUID()}`, { email: account.email, email_verified: 'false' }),
    );
    expect(res.status).toBe(401);
    expect((await res.json<any>()).error).toMatch(/not verified/);
    const stored = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(account._id) }));
    expect(stored!.appleUserId).toBeUndefined();
  });

  it('refuses an unknown subject without an email with 400', async () => {
    const res = await signIn(appleClaims(`001.${crypto.randomUUID()}`));
    expect(res.status).toBe(400);
    expect((await res.json<any>()).error).toMatch(/no account is linked/);
  });

  it.each([
    ['wrong audience', { aud: 'com.example.other' }],
    ['wrong issuer', { iss: 'https://accounts.google.com' }],
  ])('refuses a token with %s', async (_label, extra) => {
    const res = await signIn(
      appleClaims(`001.${crypto.randomUUID()}`, { email: 'x@example.com', email_verified: 'true', ...extra }),
    );
    expect(res.status).toBe(401);
  });

  it('refuses an expired token, a bad signature and an unknown key id', async () => {
    const claims = appleClaims(`001.${crypto.randomUUID()}`, { email: 'x@example.com', email_verified: 'true' });
    const expired = await signIdToken(key, claims, { expiresIn: Math.floor(Date.now() / 1000) - 5 });
    const [h, p] = (await signIdToken(key, claims)).split('.');
    const foreign = (await publishKeySet(env.STAND_INS_URL, `apple-other-${crypto.randomUUID()}`)).keys[0]!;
    for (const token of [expired, `${h}.${p}.${'B'.repeat(342)}`, await signIdToken(foreign, claims)]) {
      const res = await api.fetch('/api/auth/apple', { method: 'POST', json: { identityToken: token } });
      expect(res.status).toBe(401);
    }
  });
});
