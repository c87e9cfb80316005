import { describe, expect, it } from 'vitest';
import { decodeClaims, register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('accounts');

describe('registration', () => {
  it('creates an account and answers with the token in body and header', async () => {
    const res = await api.fetch('/api/users', {
      method: 'POST',
      json: { name: 'Nyjah', email: '  Nyjah@Example.COM ', password: 'kickflip123' },
    });
    expect(res.status).toBe(201);
    const body = await res.json<any>();
    expect(res.headers.get('x-auth-token')).toBe(body.token);
    expect(body.user).toMatchObject({ name: 'Nyjah', email: 'nyjah@example.com', role: null });
    expect(body.user).not.toHaveProperty('password');
    const claims = decodeClaims(body.token);
    expect(Object.keys(claims).sort()).toEqual(['_id', 'email', 'imageUri', 'name', 'role']);
    expect(claims).toMatchObject({ _id: body.user._id, name: 'Nyjah', email: 'nyjah@example.com', role: null });
    expect(claims).not.toHaveProperty('exp');
  });

  it('stores a bcrypt hash with cost 10', async () => {
    const account = await register(api);
    const stored = await api.db((db) => db.collection('users').findOne({ email: account.email }));
    expect(stored!.password).toMatch(/^\$2[aby]\$10\$/);
  });

  it('refuses a taken email, whatever its case, with 409', async () => {
    const account = await register(api);
    const res = await api.fetch('/api/users', {
      method: 'POST',
      json: { name: 'Copy', email: account.email.toUpperCase(), password: 'password123' },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'An account with this email already exists.' });
  });

  it('enforces password length 8 to 128', async () => {
    for (const password of ['1234567', 'x'.repeat(129)]) {
      const res = await api.fetch('/api/users', {
        method: 'POST',
        json: { name: 'Short', email: 'short@example.com', password },
      });
      expect(res.status).toBe(400);
      expect((await res.json<any>()).details[0].field).toBe('password');
    }
  });

  it('treats operator objects as invalid input, never as a query', async () => {
    const res = await api.fetch('/api/auth', { method: 'POST', json: { email: { $ne: '' }, password: { $ne: '' } } });
    expect(res.status).toBe(400);
    const body = await res.json<any>();
    expect(body.details.map((d: any) => d.field).sort()).toEqual(['email', 'password']);
  });
});

describe('sign-in', () => {
  it('signs in with email and password, case-insensitively', async () => {
    const account = await register(api);
    const res = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: account.email.toUpperCase(), password: account.password },
    });
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(res.headers.get('x-auth-token')).toBe(body.token);
    expect(body.user._id).toBe(account._id);
    expect(body.user).not.toHaveProperty('password');
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const account = await register(api);
    const wrong = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: account.email, password: 'not the password' },
    });
    const unknown = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: 'nobody@example.com', password: 'not the password' },
    });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: 'Invalid email or password.' });
    expect(await unknown.json()).toEqual({ error: 'Invalid email or password.' });
  });

  it('refuses password sign-in for an account that has no password', async () => {
    await api.db((db) =>
      db.collection('users').insertOne({
        name: 'Apple only',
        email: 'apple-only@example.com',
        role: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    const res = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: 'apple-only@example.com', password: 'anything at all' },
    });
    expect(res.status).toBe(400);
  });
});

describe('your account', () => {
  it('reads and updates the signed-in account', async () => {
    const account = await register(api);
    const me = await api.fetch('/api/users/me', { headers: { 'x-auth-token': account.token } });
    expect(me.status).toBe(200);
    expect((await me.json<any>())._id).toBe(account._id);

    const patched = await api.fetch('/api/users/me', {
      method: 'PATCH',
      headers: { 'x-auth-token': account.token },
      json: { name: 'New Name', imageUri: 'https://img.example.com/me.png' },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: 'New Name', imageUri: 'https://img.example.com/me.png' });
  });

  it('takes only an http(s) imageUri, on /me and /:id, naming the field and keeping the stored one', async () => {
    const account = await register(api);
    const kept = 'https://img.example.com/kept.png';
    const set = await api.fetch('/api/users/me', {
      method: 'PATCH',
      headers: { 'x-auth-token': account.token },
      json: { imageUri: kept },
    });
    expect(set.status).toBe(200);
    for (const imageUri of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'file:///etc/passwd',
      'ftp://x.example/a.png',
    ]) {
      const viaMe = await api.fetch('/api/users/me', {
        method: 'PATCH',
        headers: { 'x-auth-token': account.token },
        json: { imageUri },
      });
      expect(viaMe.status).toBe(400);
      expect((await viaMe.json<any>()).details).toEqual([expect.objectContaining({ field: 'imageUri' })]);
      const viaId = await api.fetch(`/api/users/${account._id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${account.token}` },
        json: { imageUri },
      });
      expect(viaId.status).toBe(400);
      expect((await viaId.json<any>()).details).toEqual([expect.objectContaining({ field: 'imageUri' })]);
    }
    const stored = await api.db((db) => db.collection('users').findOne({ email: account.email }));
    expect(stored!.imageUri).toBe(kept);
  });

  it('serves a stored imageUri that is not http(s) as no picture, to the owner, to other riders and in the token', async () => {
    const account = await register(api);
    await api.db((db) =>
      db.collection('users').updateOne({ email: account.email }, { $set: { imageUri: 'javascript:alert(1)' } }),
    );
    const me = await api.fetch('/api/users/me', { headers: { 'x-auth-token': account.token } });
    expect(await me.json()).not.toHaveProperty('imageUri');
    const viewer = await register(api);
    const profile = await api.fetch(`/api/users/${account._id}/profile`, { headers: { 'x-auth-token': viewer.token } });
    expect((await profile.json<any>()).user).toEqual({ _id: account._id, name: expect.any(String) });
    const signIn = await api.fetch('/api/auth', {
      method: 'POST',
      headers: { 'cf-connecting-ip': '10.99.0.1' },
      json: { email: account.email, password: account.password },
    });
    const body = await signIn.json<any>();
    expect(body.user).not.toHaveProperty('imageUri');
    expect(decodeClaims(body.token).imageUri).toBe('');
  });

  it('refuses fields that are not yours to change on /me', async () => {
    const account = await register(api);
    const res = await api.fetch('/api/users/me', {
      method: 'PATCH',
      headers: { 'x-auth-token': account.token },
      json: { role: 'admin' },
    });
    expect(res.status).toBe(400);
    const stored = await api.db((db) => db.collection('users').findOne({ email: account.email }));
    expect(stored!.role).toBeNull();
  });
});
