import { env } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeClaims, register, registerAdmin, seedAccount } from '../../support/accounts';
import { publishKeySet, type SigningKey, signIdToken } from '../../support/identity-keys';
import { captureLogLines, eventLines, leakedSecrets } from '../../support/log-lines';
import { refresh, registerOptIn, signInOptIn } from '../../support/sessions';
import { spotBody } from '../../support/spots';
import { type Api, createApi } from '../../support/worker-api';

let api: Api;
let google: SigningKey;
let apple: SigningKey;

beforeAll(async () => {
  const [googleKeys, appleKeys] = await Promise.all([
    publishKeySet(env.STAND_INS_URL, `takeover-google-${crypto.randomUUID()}`),
    publishKeySet(env.STAND_INS_URL, `takeover-apple-${crypto.randomUUID()}`),
  ]);
  google = googleKeys.keys[0]!;
  apple = appleKeys.keys[0]!;
  api = createApi('account-takeover', { GOOGLE_JWKS_URL: googleKeys.url, APPLE_JWKS_URL: appleKeys.url });
});

afterEach(() => vi.restoreAllMocks());

const googleSignIn = async (email: string, extra: Record<string, unknown> = {}) =>
  api.fetch('/api/auth/google', {
    method: 'POST',
    json: {
      idToken: await signIdToken(google, {
        iss: 'https://accounts.google.com',
        aud: 'web-client.apps.googleusercontent.com',
        sub: `g-${crypto.randomUUID()}`,
        email,
        email_verified: true,
        name: 'The Real Rider',
        ...extra,
      }),
    },
  });

const appleSignIn = async (email: string, name?: string) =>
  api.fetch('/api/auth/apple', {
    method: 'POST',
    json: {
      identityToken: await signIdToken(apple, {
        iss: 'https://appleid.apple.com',
        aud: 'com.example.rider',
        sub: `001.${crypto.randomUUID()}`,
        email,
        email_verified: 'true',
      }),
      ...(name ? { name } : {}),
    },
  });

const me = (token: string) => api.fetch('/api/users/me', { headers: { 'x-auth-token': token } });
const passwordSignIn = (email: string, password: string) =>
  api.fetch('/api/auth', {
    method: 'POST',
    headers: { 'cf-connecting-ip': `10.77.${Math.floor(Math.random() * 250)}.1` },
    json: { email, password },
  });
const patchAccount = (token: string, id: string, json: Record<string, unknown>) =>
  api.fetch(`/api/users/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}` }, json });
const storedUser = (id: string) => api.db((db) => db.collection('users').findOne({ _id: new ObjectId(id) }));

describe('an identity provider proving an address someone else registered', () => {
  it("takes the account over for the provider's owner: the registrant's password, token and sessions stop working", async () => {
    const attacker = await registerOptIn(api);
    const legacy = await register(api, { email: `legacy-${attacker.email}` });
    const attackerLegacy = await (await passwordSignIn(attacker.email, attacker.password)).json<{ token: string }>();

    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await googleSignIn(attacker.email.toUpperCase());
    });
    expect(res.status).toBe(200);
    expect(eventLines(lines, 'accounts.account.taken-over')).toEqual([
      expect.objectContaining({ level: 'warn', userId: attacker._id, requestId: res.headers.get('x-request-id') }),
    ]);
    const rider = await res.json<{
      token: string;
      isNewUser: boolean;
      user: { _id: string; emailVerified: boolean };
    }>();
    expect(rider).toMatchObject({ isNewUser: false, user: { _id: attacker._id, emailVerified: true } });

    // Every way the registrant had in is refused, as the Live contract refuses a token it cannot accept.
    expect(await passwordSignIn(attacker.email, attacker.password).then((r) => r.status)).toBe(400);
    for (const token of [attackerLegacy.token, attacker.token]) {
      const refused = await me(token);
      expect({ status: refused.status, body: await refused.text() }).toEqual({ status: 400, body: 'Invalid token.' });
    }
    const bearer = await patchAccount(attackerLegacy.token, attacker._id, { name: 'Still mine' });
    expect({ status: bearer.status, body: await bearer.text() }).toEqual({ status: 400, body: 'Invalid token.' });
    expect((await refresh(api, attacker.refreshToken)).status).toBe(401);
    const sessions = await api.db((db) =>
      db.collection('sessions').countDocuments({ userId: new ObjectId(attacker._id), revokedAt: null }),
    );
    expect(sessions).toBe(0);

    // The rider's own token works, and the rider's account is theirs alone.
    const mine = await me(rider.token);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ _id: attacker._id, name: 'The Real Rider', emailVerified: true });
    const stored = await storedUser(attacker._id);
    expect(stored).not.toHaveProperty('password');
    expect(stored).toMatchObject({ emailVerified: true, tokenVersion: 1, googleUserId: expect.any(String) });
    expect(decodeClaims(rider.token).tv).toBe(1);

    // Another account's tokens are untouched.
    expect((await me(legacy.token)).status).toBe(200);
  });

  it('lets the rider set a password afterwards through the password route', async () => {
    const attacker = await register(api);
    const rider = await (await appleSignIn(attacker.email, 'Apple Rider')).json<{ token: string }>();
    // The account now signs in with Apple only: a fresh Apple token proves its owner sets the password.
    const idToken = await signIdToken(apple, {
      iss: 'https://appleid.apple.com',
      aud: 'com.example.rider',
      sub: (await storedUser(attacker._id))!.appleUserId,
      email: attacker.email,
      email_verified: 'true',
    });
    const set = await api.fetch('/api/users/me/password', {
      method: 'PUT',
      headers: { 'x-auth-token': rider.token },
      json: { newPassword: 'the riders own password', identityProof: { provider: 'apple', idToken } },
    });
    expect(set.status).toBe(200);
    expect((await passwordSignIn(attacker.email, 'the riders own password')).status).toBe(200);
    expect((await passwordSignIn(attacker.email, attacker.password)).status).toBe(400);
    expect((await me(attacker.token)).status).toBe(400);
    expect(await storedUser(attacker._id)).toMatchObject({ name: 'Apple Rider', emailVerified: true });
  });

  it('links an account whose address is already proved as before: its tokens keep working', async () => {
    const email = `proved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const first = await (await googleSignIn(email)).json<{ token: string; user: { _id: string } }>();
    const linked = await appleSignIn(email);
    expect(await linked.json()).toMatchObject({ isNewUser: false, user: { _id: first.user._id } });
    expect((await me(first.token)).status).toBe(200);
    expect(decodeClaims(first.token)).not.toHaveProperty('tv');
    expect(await storedUser(first.user._id)).not.toHaveProperty('tokenVersion');
  });

  it('counts an account stored before the proof was recorded as proved only when a provider is linked', async () => {
    const linked = await seedAccount(api, { appleUserId: `001.${crypto.randomUUID()}`, password: 'a-hash' });
    const unlinked = await seedAccount(api, { password: 'a-hash' });
    expect((await googleSignIn(linked.email)).status).toBe(200);
    expect((await googleSignIn(unlinked.email)).status).toBe(200);
    expect((await me(linked.token)).status).toBe(200);
    expect((await me(unlinked.token)).status).toBe(400);
    expect(await storedUser(linked._id)).toHaveProperty('password');
    expect(await storedUser(unlinked._id)).not.toHaveProperty('password');
  });

  it('gives a password registration and a version-0 account exactly the five Live claims', async () => {
    const account = await register(api);
    expect(Object.keys(decodeClaims(account.token)).sort()).toEqual(['_id', 'email', 'imageUri', 'name', 'role']);
    expect(await storedUser(account._id)).toMatchObject({ emailVerified: false });
    expect(await (await me(account.token)).json()).toMatchObject({ emailVerified: false });
  });
});

describe('changing the address', () => {
  it('needs the current password, naming currentPassword when it is missing', async () => {
    const rider = await register(api);
    const email = `moved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const missing = await patchAccount(rider.token, rider._id, { email });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ details: [{ field: 'currentPassword' }] });
    const wrong = await patchAccount(rider.token, rider._id, { email, currentPassword: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(await storedUser(rider._id)).toMatchObject({ email: rider.email });
  });

  it('marks the new address unproved and revokes every other session, keeping the caller’s own', async () => {
    const rider = await registerOptIn(api);
    const other = await signInOptIn(api, rider);
    const email = `moved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await patchAccount(rider.token, rider._id, { email, currentPassword: rider.password });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email, emailVerified: false });
    expect((await refresh(api, other.refreshToken)).status).toBe(401);
    expect((await refresh(api, rider.refreshToken)).status).toBe(200);
  });

  it('turns an address a provider proved back to unproved, so a provider can prove it anew', async () => {
    const proved = `proved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const first = await (await googleSignIn(proved)).json<{ token: string; user: { _id: string } }>();
    const email = `typed-${crypto.randomUUID().slice(0, 8)}@example.com`;
    // A provider-only account has no password to ask for: a fresh Google token proves its owner.
    const idToken = await signIdToken(google, {
      iss: 'https://accounts.google.com',
      aud: 'web-client.apps.googleusercontent.com',
      sub: `g-${crypto.randomUUID()}`,
      email: proved,
      email_verified: true,
    });
    const identityProof = { provider: 'google', idToken };
    expect((await patchAccount(first.token, first.user._id, { email, identityProof })).status).toBe(200);
    expect(await storedUser(first.user._id)).toMatchObject({ email, emailVerified: false });
  });

  it("lets an admin change a rider's address without the rider's password, logged with the admin's id", async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const email = `admin-set-${crypto.randomUUID().slice(0, 8)}@example.com`;
    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await patchAccount(admin.token, rider._id, { email });
    });
    expect(res.status).toBe(200);
    expect(await storedUser(rider._id)).toMatchObject({ email, emailVerified: false });
    expect(eventLines(lines, 'accounts.email.changed-by-admin')).toEqual([
      expect.objectContaining({
        level: 'info',
        adminId: admin._id,
        userId: rider._id,
        requestId: res.headers.get('x-request-id'),
      }),
    ]);
    expect(leakedSecrets(lines, { email, previous: rider.email })).toEqual([]);
  });

  it('refuses currentPassword without a new email', async () => {
    const rider = await register(api);
    const res = await patchAccount(rider.token, rider._id, { name: 'Renamed', currentPassword: rider.password });
    expect(res.status).toBe(400);
    expect(await storedUser(rider._id)).toMatchObject({ name: expect.not.stringMatching('Renamed') });
  });
});

describe("a deleted account's token", () => {
  it('creates nothing: every write is refused with the Live 400 before the handler', async () => {
    const gone = await seedAccount(api);
    await api.db((db) => db.collection('users').deleteOne({ _id: new ObjectId(gone._id) }));
    const writes: [string, string, unknown][] = [
      ['/api/feed', 'feed_posts', { text: 'a ghost post' }],
      ['/api/spots', 'spots', spotBody()],
      ['/api/tricklists', 'tricklists', { name: 'Ghost list' }],
      ['/api/push-tokens', 'pushTokens', { token: 'ExponentPushToken[ghost]', platform: 'ios' }],
      ['/api/dm', 'bot_chats', { message: 'hi' }],
    ];
    const count = (collection: string) => api.db((db) => db.collection(collection).countDocuments());
    for (const [path, collection, json] of writes) {
      const before = await count(collection);
      const res = await api.fetch(path, { method: 'POST', headers: { 'x-auth-token': gone.token }, json });
      expect({ path, status: res.status, body: await res.text() }).toEqual({
        path,
        status: 400,
        body: 'Invalid token.',
      });
      expect({ collection, stored: await count(collection) }).toEqual({ collection, stored: before });
    }
  });
});
