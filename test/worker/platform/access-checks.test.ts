import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { Hono } from 'hono';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readUser } from '../../../worker/accounts/users/read-user';
import type { AppEnv } from '../../../worker/platform/app-env';
import { onError } from '../../../worker/platform/http/on-error';
import { accountReader } from '../../../worker/platform/middleware/account-reader';
import { auth } from '../../../worker/platform/middleware/auth';
import { database } from '../../../worker/platform/middleware/database';
import { subscription } from '../../../worker/riding/spot-lists/subscription';
import { register, registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('access');
const secret = new TextEncoder().encode(api.env.JWT_SECRET);

async function text(res: Response) {
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}
const plain = (status: number, body: string) => ({ status, type: expect.stringContaining('text/plain'), body });

const me = (token?: string) =>
  api.fetch('/api/users/me', { headers: token === undefined ? {} : { 'x-auth-token': token } });
const adminList = (token?: string) =>
  api.fetch('/api/admin/users', { headers: token === undefined ? {} : { 'x-auth-token': token } });

describe('auth check (x-auth-token)', () => {
  it('no token: 401 "Access denied. No token provided."', async () => {
    expect(await text(await me())).toEqual(plain(401, 'Access denied. No token provided.'));
  });
  it('bad token: 400 "Invalid token."', async () => {
    expect(await text(await me('garbage'))).toEqual(plain(400, 'Invalid token.'));
  });
  it('valid token: the claims become the request user', async () => {
    const account = await register(api);
    expect((await me(account.token)).status).toBe(200);
  });
});

describe('hostile tokens', () => {
  const claims = {
    _id: new ObjectId().toHexString(),
    name: 'Mallory',
    email: 'm@example.com',
    imageUri: '',
    role: 'admin',
  };
  const b64 = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

  it('refuses alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    expect(await text(await me(token))).toEqual(plain(400, 'Invalid token.'));
    expect(await text(await adminList(token))).toEqual(plain(400, 'Invalid token.'));
  });
  it('refuses another algorithm with the right secret', async () => {
    const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(secret);
    expect(await text(await me(token))).toEqual(plain(400, 'Invalid token.'));
  });
  it('refuses a token signed with a foreign key', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const rsa = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    const otherSecret = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another secret'));
    expect(await text(await me(rsa))).toEqual(plain(400, 'Invalid token.'));
    expect(await text(await me(otherSecret))).toEqual(plain(400, 'Invalid token.'));
  });
  it('refuses missing or wrongly typed claims', async () => {
    const { _id: _dropped, ...noId } = claims;
    for (const payload of [
      noId,
      { ...claims, _id: 42 },
      { ...claims, role: 'superuser' },
      { ...claims, email: ['x'] },
    ]) {
      const token = await new SignJWT(payload as never).setProtectedHeader({ alg: 'HS256' }).sign(secret);
      expect(await text(await me(token))).toEqual(plain(400, 'Invalid token.'));
    }
  });
  it('refuses a public key presented as the HMAC secret (key confusion)', async () => {
    const { publicKey } = await generateKeyPair('RS256');
    const jwk = await exportJWK(publicKey);
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', jwk } as never)
      .sign(new TextEncoder().encode(JSON.stringify(jwk)));
    expect(await text(await me(token))).toEqual(plain(400, 'Invalid token.'));
  });
});

describe('admin check', () => {
  it('no token: 401 "Access denied."', async () => {
    expect(await text(await adminList())).toEqual(plain(401, 'Access denied.'));
  });
  it('not an admin: 403 "Access denied. Admin only."', async () => {
    const account = await register(api);
    expect(await text(await adminList(account.token))).toEqual(plain(403, 'Access denied. Admin only.'));
  });
  it('unverifiable token: 400 "Invalid token."', async () => {
    expect(await text(await adminList('nope'))).toEqual(plain(400, 'Invalid token.'));
  });
  it('any other failure, such as a deleted account: 400 "Invalid token."', async () => {
    const account = await register(api);
    await api.db((db) => db.collection('users').deleteOne({ _id: new ObjectId(account._id) }));
    expect(await text(await adminList(account.token))).toEqual(plain(400, 'Invalid token.'));
  });
  it('reads the role from the store, not the claim', async () => {
    const account = await register(api);
    const forgedRole = await new SignJWT({
      _id: account._id,
      name: 'x',
      email: account.email,
      imageUri: '',
      role: 'admin',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    expect(await text(await adminList(forgedRole))).toEqual(plain(403, 'Access denied. Admin only.'));

    await api.db((db) =>
      db.collection('users').updateOne({ _id: new ObjectId(account._id) }, { $set: { role: 'admin' } }),
    );
    expect((await adminList(account.token)).status).toBe(200);
  });
});

describe('account-or-admin check (Authorization: Bearer)', () => {
  const patch = (id: string, token: string | undefined, json: object = { name: 'Renamed' }) =>
    api.fetch(`/api/users/${id}`, {
      method: 'PATCH',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      json,
    });

  it('passes for the account itself', async () => {
    const account = await register(api);
    const res = await patch(account._id, account.token);
    expect(res.status).toBe(200);
    expect((await res.json<any>()).name).toBe('Renamed');
  });
  it('passes for an admin on any account', async () => {
    const [admin, other] = [await registerAdmin(api), await register(api)];
    expect((await patch(other._id, admin.token)).status).toBe(200);
  });
  it('refuses another account: 403 "Access denied."', async () => {
    const [mine, theirs] = [await register(api), await register(api)];
    expect(await text(await patch(theirs._id, mine.token))).toEqual(plain(403, 'Access denied.'));
  });
  it('refuses another account even when the body carries your own email', async () => {
    const [mine, theirs] = [await register(api), await register(api)];
    expect(await text(await patch(theirs._id, mine.token, { email: mine.email }))).toEqual(
      plain(403, 'Access denied.'),
    );
    const stored = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(theirs._id) }));
    expect(stored!.email).toBe(theirs.email);
  });
  it('does not read x-auth-token', async () => {
    const account = await register(api);
    const res = await api.fetch(`/api/users/${account._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': account.token },
      json: { name: 'x' },
    });
    expect(await text(res)).toEqual(plain(401, 'Access denied. No token provided.'));
  });
  it('bad bearer token: 400 "Invalid token."', async () => {
    const account = await register(api);
    expect(await text(await patch(account._id, 'garbage'))).toEqual(plain(400, 'Invalid token.'));
  });
});

describe('subscription check', () => {
  // The real middleware chain, mounted on a route of the test's own, as worker/app.ts composes it.
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.post('/spotlist-gate', database(), accountReader(readUser), auth(), subscription(), (c) =>
    c.json({ passed: true }),
  );
  async function gate(token: string) {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request('http://rider.test/spotlist-gate', { method: 'POST', headers: { 'x-auth-token': token } }),
      api.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }
  const addLists = (userId: string, count: number) =>
    api.db((db) =>
      db.collection('spotlists').insertMany(
        Array.from({ length: count }, (_, i) => ({
          userId: new ObjectId(userId),
          name: `List ${i}`,
          spotIds: [],
          createdAt: new Date(),
          updatedAt: new Date(),
        })),
      ),
    );

  it('lets a free user with fewer than 3 lists through', async () => {
    const account = await register(api);
    await addLists(account._id, 2);
    expect((await gate(account.token)).status).toBe(200);
  });
  it('refuses a free user owning 3 or more lists with the JSON upgrade error', async () => {
    const account = await register(api);
    await addLists(account._id, 3);
    const res = await gate(account.token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'Upgrade to premium for unlimited spot lists' });
  });
  it('lets premium-active users through, but not premium users whose status is not active', async () => {
    const [active, lapsed] = [await register(api), await register(api)];
    await addLists(active._id, 5);
    await addLists(lapsed._id, 5);
    await api.db(async (db) => {
      await db
        .collection('users')
        .updateOne(
          { _id: new ObjectId(active._id) },
          { $set: { subscription: { plan: 'premium', status: 'active' } } },
        );
      await db
        .collection('users')
        .updateOne(
          { _id: new ObjectId(lapsed._id) },
          { $set: { subscription: { plan: 'premium', status: 'canceled' } } },
        );
    });
    expect((await gate(active.token)).status).toBe(200);
    expect((await gate(lapsed.token)).status).toBe(403);
  });
});
