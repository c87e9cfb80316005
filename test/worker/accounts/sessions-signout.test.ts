import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { decodeClaims, register, registerAdmin } from '../../support/accounts';
import { refresh, registerOptIn, signInOptIn, signWith } from '../../support/sessions';
import { createApi } from '../../support/worker-api';

const api = createApi('sessions-signout');
const logout = (token: string, json?: unknown) =>
  api.fetch('/api/auth/logout', { method: 'POST', headers: { 'x-auth-token': token }, ...(json ? { json } : {}) });
const list = (token: string) => api.fetch('/api/users/me/sessions', { headers: { 'x-auth-token': token } });

describe('sign-out', () => {
  it("revokes the token's own session only", async () => {
    const account = await registerOptIn(api);
    const other = await signInOptIn(api, account);
    expect(await (await logout(account.token)).json()).toEqual({ revoked: 1 });
    expect(await (await refresh(api, account.refreshToken)).json()).toEqual({ error: 'Refresh token revoked.' });
    expect((await refresh(api, other.refreshToken)).status).toBe(200);
  });
  it('with {all: true} revokes every session of the account', async () => {
    const account = await registerOptIn(api);
    const other = await signInOptIn(api, account);
    expect(await (await logout(account.token, { all: true })).json()).toEqual({ revoked: 2 });
    for (const token of [account.refreshToken, other.refreshToken])
      expect((await refresh(api, token)).status).toBe(401);
  });
  it('with a legacy token changes nothing unless all is given', async () => {
    const account = await registerOptIn(api);
    const legacy = await signWith(api.env.JWT_SECRET!, {
      ...decodeClaims(account.token),
      exp: undefined,
      iat: undefined,
      sid: undefined,
    });
    expect(await (await logout(legacy)).json()).toEqual({ revoked: 0 });
    expect((await refresh(api, account.refreshToken)).status).toBe(200);
    expect(await (await logout(legacy, { all: true })).json()).toEqual({ revoked: 1 });
  });
});

describe('the sessions list', () => {
  it('lists live sessions with device, dates and which is current, never a token or hash', async () => {
    const account = await registerOptIn(api, 'RiderApp/3.1 (Android 15)');
    const web = await signInOptIn(api, account, 'Mozilla/5.0 RiderWeb');
    const body = await (await list(web.token)).json<{ items: Record<string, unknown>[]; nextCursor: null }>();
    expect(body.items.map((item) => [item.device, item.current])).toEqual([
      ['Mozilla/5.0 RiderWeb', true],
      ['RiderApp/3.1 (Android 15)', false],
    ]);
    expect(Object.keys(body.items[0]!).sort()).toEqual([
      '_id',
      'createdAt',
      'current',
      'device',
      'expiresAt',
      'lastUsedAt',
    ]);
    expect(JSON.stringify(body)).not.toContain(account.refreshToken.split('.')[0]);
  });
  it("DELETE revokes one session of yours; anyone else's or an unknown id is 404", async () => {
    const account = await registerOptIn(api);
    const other = await signInOptIn(api, account);
    const otherId = decodeClaims(other.token).sid as string;
    const stranger = await register(api);
    const asStranger = await api.fetch(`/api/users/me/sessions/${otherId}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': stranger.token },
    });
    expect(asStranger.status).toBe(404);
    const res = await api.fetch(`/api/users/me/sessions/${otherId}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': account.token },
    });
    expect(await res.json()).toEqual({ revoked: 1 });
    expect(await (await refresh(api, other.refreshToken)).json()).toEqual({ error: 'Refresh token revoked.' });
    const again = await api.fetch(`/api/users/me/sessions/${otherId}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': account.token },
    });
    expect(again.status).toBe(404);
    const items = (await (await list(account.token)).json<{ items: { _id: string }[] }>()).items;
    expect(items.map((item) => item._id)).toEqual([decodeClaims(account.token).sid]);
  });
  it('account deletion removes the sessions', async () => {
    const account = await registerOptIn(api);
    const res = await api.fetch(`/api/users/${account._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(res.status).toBe(200);
    expect(await api.db((db) => db.collection('sessions').countDocuments({ userId: new ObjectId(account._id) }))).toBe(
      0,
    );
    expect(await (await refresh(api, account.refreshToken)).json()).toEqual({ error: 'Refresh token not recognised.' });
  });
});

describe('signing-key rotation', () => {
  it('JWT_SECRET_PREVIOUS still verifies tokens signed before the rotation, with or without kid', async () => {
    const account = await register(api);
    // The same database, so the checks find the account the token names.
    const rotated = createApi('sessions-rotated', {
      JWT_SECRET: 'the-new-secret-after-rotation',
      JWT_SECRET_PREVIOUS: api.env.JWT_SECRET,
      MONGODB_URI: api.env.MONGODB_URI,
    });
    const noKid = await signWith(api.env.JWT_SECRET!, decodeClaims(account.token));
    for (const token of [account.token, noKid]) {
      expect((await rotated.fetch('/api/users/me', { headers: { 'x-auth-token': token } })).status).toBe(200);
    }
    const unrelated = await signWith('never-configured', decodeClaims(account.token));
    expect((await rotated.fetch('/api/users/me', { headers: { 'x-auth-token': unrelated } })).status).toBe(400);
    const withoutPrevious = createApi('sessions-rotated-done', { JWT_SECRET: 'the-new-secret-after-rotation' });
    expect((await withoutPrevious.fetch('/api/users/me', { headers: { 'x-auth-token': account.token } })).status).toBe(
      400,
    );
  });
  it('new tokens are signed with JWT_SECRET under its own kid', async () => {
    const rotated = createApi('sessions-rotated-sign', {
      JWT_SECRET: 'the-new-secret-after-rotation',
      JWT_SECRET_PREVIOUS: api.env.JWT_SECRET,
    });
    const fresh = await register(rotated);
    const old = await register(api);
    const kid = (token: string) => JSON.parse(atob(token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/'))).kid;
    expect(kid(fresh.token)).not.toBe(kid(old.token));
    expect((await api.fetch('/api/users/me', { headers: { 'x-auth-token': fresh.token } })).status).toBe(400);
  });
});

describe('what signing out ends', () => {
  const me = (token: string) => api.fetch('/api/users/me', { headers: { 'x-auth-token': token } });
  it('with {all: true} ends every token issued before it, legacy ones included, and no other account’s', async () => {
    const account = await register(api);
    const session = await signInOptIn(api, account);
    const stranger = await register(api);
    expect((await me(account.token)).status).toBe(200);
    expect((await logout(session.token, { all: true })).status).toBe(200);
    for (const token of [account.token, session.token]) {
      const res = await me(token);
      expect([res.status, await res.text()]).toEqual([400, 'Invalid token.']);
    }
    expect((await me(stranger.token)).status).toBe(200);
  });
  it('a token signed in after {all: true} works', async () => {
    const account = await register(api);
    await logout(account.token, { all: true });
    const res = await api.fetch('/api/auth', {
      method: 'POST',
      headers: { 'cf-connecting-ip': '10.8.8.8' },
      json: { email: account.email, password: account.password },
    });
    const { token } = await res.json<{ token: string }>();
    expect((await me(token)).status).toBe(200);
  });
  it("ends a revoked session's access token before its exp, and only that session's", async () => {
    const account = await registerOptIn(api);
    const other = await signInOptIn(api, account);
    const third = await signInOptIn(api, account);
    expect((await logout(account.token)).status).toBe(200);
    const res = await me(account.token);
    expect([res.status, await res.text()]).toEqual([400, 'Invalid token.']);
    const otherId = decodeClaims(other.token).sid as string;
    await api.fetch(`/api/users/me/sessions/${otherId}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': third.token },
    });
    expect((await me(other.token)).status).toBe(400);
    expect((await me(third.token)).status).toBe(200);
  });
  it("a reused refresh token ends its session's access tokens", async () => {
    const account = await registerOptIn(api);
    const { token } = await (await refresh(api, account.refreshToken)).json<{ token: string }>();
    expect((await me(token)).status).toBe(200);
    const sid = new ObjectId(decodeClaims(account.token).sid as string);
    await api.db((db) =>
      db.collection('sessions').updateOne({ _id: sid }, { $set: { rotatedAt: new Date(Date.now() - 60_000) } }),
    );
    expect((await refresh(api, account.refreshToken)).status).toBe(401);
    expect((await me(token)).status).toBe(400);
  });
});

describe('what an email change and an account deletion end', () => {
  const me = (token: string) => api.fetch('/api/users/me', { headers: { 'x-auth-token': token } });
  const changeEmail = (token: string, id: string, body: Record<string, unknown>) =>
    api.fetch(`/api/users/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}` }, json: body });
  const newEmail = () => `moved-${crypto.randomUUID().slice(0, 8)}@example.com`;

  it("an email change ends every other session's access tokens at once; the caller's and legacy tokens go on", async () => {
    const account = await registerOptIn(api);
    const [other, third] = [await signInOptIn(api, account), await signInOptIn(api, account)];
    const legacy = await signWith(api.env.JWT_SECRET!, {
      ...decodeClaims(account.token),
      exp: undefined,
      iat: undefined,
      sid: undefined,
    });
    const res = await changeEmail(account.token, account._id, { email: newEmail(), currentPassword: account.password });
    expect(res.status).toBe(200);
    for (const token of [other.token, third.token]) {
      const refused = await me(token);
      expect([refused.status, await refused.text()]).toEqual([400, 'Invalid token.']);
    }
    expect((await me(account.token)).status).toBe(200);
    expect((await me(legacy)).status).toBe(200);
  });

  it("an admin's change of a rider's address ends every session's access tokens", async () => {
    const account = await registerOptIn(api);
    const admin = await registerAdmin(api);
    expect((await changeEmail(admin.token, account._id, { email: newEmail() })).status).toBe(200);
    const refused = await me(account.token);
    expect([refused.status, await refused.text()]).toEqual([400, 'Invalid token.']);
    expect((await refresh(api, account.refreshToken)).status).toBe(401);
  });

  it("an account deletion ends the account's every token", async () => {
    const account = await registerOptIn(api);
    const other = await signInOptIn(api, account);
    const res = await api.fetch(`/api/users/${account._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(res.status).toBe(200);
    for (const token of [account.token, other.token]) expect((await me(token)).status).toBe(400);
  });
});
