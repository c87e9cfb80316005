import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('admin-users');

describe('admin user routes', () => {
  it('searches by name or email, pages with a cursor, and never shows hashes', async () => {
    const admin = await registerAdmin(api);
    for (let i = 0; i < 5; i++) await register(api, { name: `Searchable ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await api.fetch(
        `/api/admin/users?q=searchable&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: { 'x-auth-token': admin.token } },
      );
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain('$2');
      const page = JSON.parse(text) as { items: { _id: string; name: string }[]; nextCursor: string | null };
      seen.push(...page.items.map((u) => u.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Searchable 4', 'Searchable 3', 'Searchable 2', 'Searchable 1', 'Searchable 0']);
  });

  it('rejects a forged cursor with 400', async () => {
    const admin = await registerAdmin(api);
    const res = await api.fetch('/api/admin/users?cursor=%24%24', { headers: { 'x-auth-token': admin.token } });
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details[0].field).toBe('cursor');
  });

  it('sets role and analytics flags, and the role takes effect at once', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const res = await api.fetch(`/api/admin/users/${rider._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': admin.token },
      json: { role: 'admin', isBot: true, analyticsExcluded: true },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ role: 'admin', isBot: true, analyticsExcluded: true });
    expect((await api.fetch('/api/admin/users', { headers: { 'x-auth-token': rider.token } })).status).toBe(200);

    await api.fetch(`/api/admin/users/${rider._id}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': admin.token },
      json: { role: null },
    });
    expect((await api.fetch('/api/admin/users', { headers: { 'x-auth-token': rider.token } })).status).toBe(403);
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    const admin = await registerAdmin(api);
    const unknown = await api.fetch(`/api/admin/users/${new ObjectId().toHexString()}`, {
      method: 'PATCH',
      headers: { 'x-auth-token': admin.token },
      json: { isBot: true },
    });
    expect(unknown.status).toBe(404);
    const malformed = await api.fetch('/api/admin/users/not-an-id', {
      method: 'PATCH',
      headers: { 'x-auth-token': admin.token },
      json: { isBot: true },
    });
    expect(malformed.status).toBe(400);
  });
});
