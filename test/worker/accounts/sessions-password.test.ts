import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { decodeClaims, register } from '../../support/accounts';
import { refresh, registerOptIn, signInOptIn } from '../../support/sessions';
import { createApi } from '../../support/worker-api';

const api = createApi('sessions-password');
const ip = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const changePassword = (token: string, json: unknown) =>
  api.fetch('/api/users/me/password', {
    method: 'PUT',
    headers: { 'x-auth-token': token, 'cf-connecting-ip': ip() },
    json,
  });
const signIn = (email: string, password: string) =>
  api.fetch('/api/auth', { method: 'POST', headers: { 'cf-connecting-ip': ip() }, json: { email, password } });

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/users/me/password', check: 'auth', json: { newPassword: 'a brand new one' } },
  { method: 'GET', path: '/api/admin/legacy-token-usage', check: 'admin' },
]);

describe('password change', () => {
  it('with the right current password changes it and revokes every other session, not this one', async () => {
    const account = await registerOptIn(api);
    const other = await signInOptIn(api, account);
    const res = await changePassword(account.token, {
      currentPassword: account.password,
      newPassword: 'a brand new one',
    });
    expect(await res.json()).toEqual({ changed: true, revokedSessions: 1, token: expect.any(String), expiresIn: 3600 });
    expect(await (await refresh(api, other.refreshToken)).json()).toEqual({ error: 'Refresh token revoked.' });
    expect((await refresh(api, account.refreshToken)).status).toBe(200);
    expect((await signIn(account.email, 'a brand new one')).status).toBe(200);
    expect((await signIn(account.email, account.password)).status).toBe(400);
  });
  it('from a legacy token revokes every session of the account', async () => {
    const account = await register(api);
    const session = await signInOptIn(api, account);
    const res = await changePassword(account.token, {
      currentPassword: account.password,
      newPassword: 'a brand new one',
    });
    expect(await res.json()).toEqual({ changed: true, revokedSessions: 1, token: expect.any(String) });
    expect((await refresh(api, session.refreshToken)).status).toBe(401);
  });
  it('a wrong current password is a 400 and counts toward the sign-in limit', async () => {
    const account = await register(api);
    for (let i = 0; i < 5; i++) {
      const res = await changePassword(account.token, {
        currentPassword: 'not it at all',
        newPassword: 'a brand new one',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'Current password is incorrect.' });
    }
    const blocked = await changePassword(account.token, {
      currentPassword: account.password,
      newPassword: 'a brand new one',
    });
    expect(blocked.status).toBe(429);
    expect((await signIn(account.email, account.password)).status).toBe(429);
  });
  it('an account with a password must send currentPassword; the new one follows the password rules', async () => {
    const account = await register(api);
    const missing = await changePassword(account.token, { newPassword: 'a brand new one' });
    expect(missing.status).toBe(400);
    expect(
      (await changePassword(account.token, { currentPassword: account.password, newPassword: 'short' })).status,
    ).toBe(400);
  });
});

describe('legacy token usage', () => {
  it('counts per UTC day the requests that presented a legacy token, not opt-in ones', async () => {
    const counted = createApi('sessions-legacy-usage');
    const rider = await register(counted);
    const optIn = await registerOptIn(counted);
    // An opt-in admin, so reading the figures does not count itself.
    const adminAccount = await registerOptIn(counted);
    await counted.db((db) =>
      db.collection('users').updateOne({ _id: new ObjectId(adminAccount._id) }, { $set: { role: 'admin' } }),
    );
    for (let i = 0; i < 3; i++) await counted.fetch('/api/users/me', { headers: { 'x-auth-token': rider.token } });
    await counted.fetch('/api/users/me', { headers: { 'x-auth-token': optIn.token } });
    const res = await counted.fetch('/api/admin/legacy-token-usage?days=7', {
      headers: { 'x-auth-token': adminAccount.token },
    });
    const { days } = await res.json<{ days: { date: string; requests: number }[] }>();
    expect(days).toHaveLength(7);
    expect(days[0]).toEqual({ date: new Date().toISOString().slice(0, 10), requests: 3 });
    expect(days.slice(1).every((day) => day.requests === 0)).toBe(true);
  });
  it('counts every request of a burst of concurrent legacy-token requests exactly, once the background work settles', async () => {
    // A window long enough that the requests share batches in memory.
    const burst = createApi('sessions-legacy-burst', { LEGACY_USAGE_FLUSH_MS: '500' });
    const riders = await Promise.all([register(burst), register(burst)]);
    const me = (i: number) => burst.fetch('/api/users/me', { headers: { 'x-auth-token': riders[i % 2]!.token } });
    const stored = () => burst.db((db) => db.collection('legacy_token_usage').find().toArray());
    const today = new Date().toISOString().slice(0, 10);
    // A request's background work ends only once the batch holding its count is written, whichever request writes it.
    const first = me(0);
    expect((await me(1)).status).toBe(200);
    expect(await stored()).toEqual([{ _id: today, requests: 2 }]);
    await first;
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => me(i)));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(await stored()).toEqual([{ _id: today, requests: 62 }]);
  });
});

describe('what a password change ends', () => {
  const me = (token: string) => api.fetch('/api/users/me', { headers: { 'x-auth-token': token } });
  it('ends every earlier token of the account, legacy ones included; the caller gets a fresh one', async () => {
    const account = await register(api);
    const lostPhone = await signIn(account.email, account.password).then((res) => res.json<{ token: string }>());
    const session = await signInOptIn(api, account);
    const stranger = await register(api);
    const res = await changePassword(account.token, {
      currentPassword: account.password,
      newPassword: 'a brand new one',
    });
    const body = await res.json<{ token: string }>();
    expect(res.headers.get('x-auth-token')).toBe(body.token);
    for (const token of [account.token, lostPhone.token, session.token]) {
      const old = await me(token);
      expect([old.status, await old.text()]).toEqual([400, 'Invalid token.']);
    }
    expect((await me(body.token)).status).toBe(200);
    expect((await me(stranger.token)).status).toBe(200);
  });
  it('an opt-in caller keeps its session, with an access token at the new version', async () => {
    const account = await registerOptIn(api);
    const res = await changePassword(account.token, {
      currentPassword: account.password,
      newPassword: 'a brand new one',
    });
    const body = await res.json<{ token: string; expiresIn: number }>();
    expect(body.expiresIn).toBeGreaterThan(0);
    expect(decodeClaims(body.token).sid).toBe(decodeClaims(account.token).sid);
    expect((await me(account.token)).status).toBe(400);
    expect((await me(body.token)).status).toBe(200);
    const next = await (await refresh(api, account.refreshToken)).json<{ token: string }>();
    expect((await me(next.token)).status).toBe(200);
  });
});
