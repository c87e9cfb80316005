import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { decodeClaims, register } from '../../support/accounts';
import { eventDoc, insertEvents } from '../../support/events';
import { newSpot } from '../../support/feed';
import { refresh, registerOptIn, sha256Hex, signInOptIn, signWith } from '../../support/sessions';
import { createApi } from '../../support/worker-api';

const api = createApi('sessions');
const me = (token: string) => api.fetch('/api/users/me', { headers: { 'x-auth-token': token } });
const header = (token: string) => JSON.parse(atob(token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/')));

describeAccessChecks(api, [
  { method: 'POST', path: '/api/auth/logout', check: 'auth', json: {} },
  { method: 'GET', path: '/api/users/me/sessions', check: 'auth' },
  { method: 'DELETE', path: '/api/users/me/sessions/:id', check: 'auth' },
]);

describe('legacy tokens (no x-session-mode)', () => {
  it('keep exactly the five Live claims, no exp, and the {token, user} body', async () => {
    const res = await api.fetch('/api/users', {
      method: 'POST',
      json: {
        name: 'Legacy',
        email: `legacy-${crypto.randomUUID().slice(0, 8)}@example.com`,
        password: 'correct horse',
      },
    });
    const body = await res.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(Object.keys(decodeClaims(body.token as string)).sort()).toEqual([
      '_id',
      'email',
      'imageUri',
      'name',
      'role',
    ]);
    expect(res.headers.get('x-auth-token')).toBe(body.token);
  });
  it('carry a kid in the header, not among the claims', async () => {
    const account = await register(api);
    expect(header(account.token)).toMatchObject({ alg: 'HS256', typ: 'JWT', kid: expect.any(String) });
    expect(decodeClaims(account.token)).not.toHaveProperty('kid');
  });
  it('are accepted with no time limit, and so is a token of the previous service (iat, no kid)', async () => {
    const account = await register(api);
    const claims = decodeClaims(account.token);
    const old = await signWith(api.env.JWT_SECRET!, { ...claims, iat: 1_400_000_000 });
    expect((await me(old)).status).toBe(200);
    expect((await me(account.token)).status).toBe(200);
  });
});

describe('opting in', () => {
  it('registration with x-session-mode: refresh returns an expiring token with sid and a refresh token', async () => {
    const session = await registerOptIn(api);
    expect(session.expiresIn).toBe(3600);
    const claims = decodeClaims(session.token);
    expect(Object.keys(claims).sort()).toEqual(['_id', 'email', 'exp', 'iat', 'imageUri', 'name', 'role', 'sid']);
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(session.refreshToken.split('.')[1]!.length).toBeGreaterThanOrEqual(43);
    const stored = await api.db((db) => db.collection('sessions').findOne({ _id: new ObjectId(claims.sid as string) }));
    expect(stored?.tokenHash).toBe(await sha256Hex(session.refreshToken));
    expect(JSON.stringify(stored)).not.toContain(session.refreshToken.split('.')[1]);
    expect(stored?.device).toBe('RiderApp/3.1 (iOS 18)');
  });
  it('password sign-in with the header opens another session', async () => {
    const account = await registerOptIn(api);
    const second = await signInOptIn(api, account);
    expect(decodeClaims(second.token).sid).not.toBe(decodeClaims(account.token).sid);
  });
  it('a missing REFRESH_TOKEN_SECRET refuses opt-in by name before any account is stored; legacy still works', async () => {
    const bare = createApi('sessions-nosecret', { REFRESH_TOKEN_SECRET: undefined });
    const email = `nosecret-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await bare.fetch('/api/users', {
      method: 'POST',
      headers: { 'x-session-mode': 'refresh' },
      json: { name: 'N', email, password: 'correct horse' },
    });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('REFRESH_TOKEN_SECRET is not set');
    expect(await bare.db((db) => db.collection('users').countDocuments({ email }))).toBe(0);
    expect(
      (await bare.fetch('/api/users', { method: 'POST', json: { name: 'N', email, password: 'correct horse' } }))
        .status,
    ).toBe(201);
  });
});

describe('access token expiry', () => {
  it('an opt-in token is accepted before its exp', async () => {
    expect((await me((await registerOptIn(api)).token)).status).toBe(200);
  });
  it('past its exp every check answers 401 JSON "Token expired." with WWW-Authenticate', async () => {
    const session = await registerOptIn(api);
    const claims = { ...decodeClaims(session.token), exp: Math.floor(Date.now() / 1000) - 5 };
    const expired = await signWith(api.env.JWT_SECRET!, claims);
    const answers = [
      await me(expired),
      await api.fetch('/api/admin/users', { headers: { 'x-auth-token': expired } }),
      await api.fetch(`/api/users/${session._id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${expired}` },
        json: { name: 'X' },
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(await res.json()).toEqual({ error: 'Token expired.' });
    }
  });
  it('an expired token with a bad signature is still 400 "Invalid token."', async () => {
    const forged = await signWith('another secret', { ...decodeClaims((await registerOptIn(api)).token), exp: 1 });
    const res = await me(forged);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('Invalid token.');
  });
});

describe('refresh', () => {
  it('rotates: a new access token and a new refresh token, the old one spent', async () => {
    const session = await registerOptIn(api);
    const res = await refresh(api, session.refreshToken);
    expect(res.status).toBe(200);
    const next = await res.json<{ token: string; refreshToken: string; expiresIn: number }>();
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect(decodeClaims(next.token).sid).toBe(decodeClaims(session.token).sid);
    expect((await me(next.token)).status).toBe(200);
    expect((await refresh(api, next.refreshToken)).status).toBe(200);
  });
  it('a retry within the grace window gets the same refresh token and a fresh access token', async () => {
    const session = await registerOptIn(api);
    const first = await (await refresh(api, session.refreshToken)).json<{ refreshToken: string }>();
    const retry = await refresh(api, session.refreshToken);
    expect(retry.status).toBe(200);
    expect((await retry.json<{ refreshToken: string }>()).refreshToken).toBe(first.refreshToken);
  });
  it('reuse of a spent token after the grace window revokes the session: old and new tokens refused', async () => {
    const session = await registerOptIn(api);
    const next = await (await refresh(api, session.refreshToken)).json<{ refreshToken: string }>();
    const sid = new ObjectId(decodeClaims(session.token).sid as string);
    await api.db((db) =>
      db.collection('sessions').updateOne({ _id: sid }, { $set: { rotatedAt: new Date(Date.now() - 60_000) } }),
    );
    for (const token of [session.refreshToken, next.refreshToken]) {
      const res = await refresh(api, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Refresh token revoked.' });
    }
  });
  it('a spent token two rotations old is recognised as reuse, not as unknown', async () => {
    const session = await registerOptIn(api);
    const one = await (await refresh(api, session.refreshToken)).json<{ refreshToken: string }>();
    const two = await (await refresh(api, one.refreshToken)).json<{ refreshToken: string }>();
    expect((await refresh(api, session.refreshToken)).status).toBe(401);
    expect(await (await refresh(api, two.refreshToken)).json()).toEqual({ error: 'Refresh token revoked.' });
  });
  it('twenty parallel refreshes with one token leave exactly one live successor', async () => {
    const session = await registerOptIn(api);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(api, session.refreshToken)));
    const bodies = await Promise.all(answers.map((res) => res.json<{ refreshToken: string }>()));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    const successors = new Set(bodies.map((body) => body.refreshToken));
    expect(successors.size).toBe(1);
    const sid = new ObjectId(decodeClaims(session.token).sid as string);
    const stored = await api.db((db) => db.collection('sessions').findOne({ _id: sid }));
    expect(stored?.tokenHash).toBe(await sha256Hex([...successors][0]!));
    expect((await refresh(api, [...successors][0]!)).status).toBe(200);
  });
  it('unknown, malformed and expired refresh tokens get their own 401 texts', async () => {
    const unknown = await refresh(api, `${'A'.repeat(22)}.${'B'.repeat(43)}`);
    expect(await unknown.json()).toEqual({ error: 'Refresh token not recognised.' });
    expect(await (await refresh(api, 'garbage')).json()).toEqual({ error: 'Refresh token not recognised.' });
    const session = await registerOptIn(api);
    const sid = new ObjectId(decodeClaims(session.token).sid as string);
    // An expired session lives until the TTL monitor passes (up to a minute on MongoDB, a second on the dev
    // database): without the TTL index here, the sweeper cannot remove it before the refresh reads it.
    await api.db(async (db) => {
      await db.collection('sessions').dropIndex('expiresAt_ttl');
      await db.collection('sessions').updateOne({ _id: sid }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    });
    const expired = await refresh(api, session.refreshToken);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: 'Refresh token expired.' });
  });
});

describe('an optional x-auth-token on public reads', () => {
  /** Every public route that reads an optional token, each against a rider, a post and an event that exist. */
  async function publicReads() {
    const rider = await register(api);
    const posted = await api.fetch('/api/feed', {
      method: 'POST',
      headers: { 'x-auth-token': rider.token },
      json: { text: 'Boardslide' },
    });
    const { _id: postId } = await posted.json<{ _id: string }>();
    const event = eventDoc();
    await insertEvents(api, [event]);
    return [
      '/api/feed',
      `/api/feed/${postId}`,
      `/api/feed/${postId}/comments`,
      `/api/users/${rider._id}/profile`,
      `/api/users/${rider._id}/followers`,
      `/api/users/${rider._id}/following`,
      `/api/events/${event._id.toHexString()}`,
      '/api/blog',
    ];
  }
  const read = (path: string, token?: string) =>
    api.fetch(path, { headers: token === undefined ? {} : { 'x-auth-token': token } });

  it('absent reads as the public; present but not verifying is 400 "Invalid token.", never the public view', async () => {
    const paths = await publicReads();
    for (const path of paths) {
      expect((await read(path)).status, path).toBe(200);
      const res = await read(path, 'garbage');
      expect([path, res.status, await res.text()]).toEqual([path, 400, 'Invalid token.']);
    }
    // Admin views of public lists read the token only when asked for; a bad one is still refused as bad.
    const spotId = await newSpot(api);
    for (const path of [`/api/spots/${spotId}/stays?includeUnreviewed=true`, '/api/blog?status=draft']) {
      expect((await read(path)).status, path).toBe(403);
      const res = await read(path, 'garbage');
      expect([path, res.status, await res.text()]).toEqual([path, 400, 'Invalid token.']);
    }
  });

  it('is 400 "Invalid token." for a deleted account\'s token and for a revoked one', async () => {
    const paths = await publicReads();
    const [gone, revoked] = [await register(api), await register(api)];
    await api.db((db) => db.collection('users').deleteOne({ _id: new ObjectId(gone._id) }));
    await api.db((db) =>
      db.collection('users').updateOne({ _id: new ObjectId(revoked._id) }, { $inc: { tokenVersion: 1 } }),
    );
    for (const path of paths) {
      for (const token of [gone.token, revoked.token]) {
        const res = await read(path, token);
        expect([path, res.status, await res.text()]).toEqual([path, 400, 'Invalid token.']);
      }
    }
  });

  it('an opt-in token past its exp is 401 JSON "Token expired.", as the auth check answers', async () => {
    const paths = await publicReads();
    const session = await registerOptIn(api);
    const expired = await signWith(api.env.JWT_SECRET!, {
      ...decodeClaims(session.token),
      exp: Math.floor(Date.now() / 1000) - 5,
    });
    for (const path of paths) {
      const res = await read(path, expired);
      expect([path, res.status, res.headers.get('www-authenticate')]).toEqual([
        path,
        401,
        'Bearer error="invalid_token"',
      ]);
      expect(await res.json()).toEqual({ error: 'Token expired.' });
    }
  });
});
