import { SignJWT } from 'jose';
import { type Document, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { publicUsers } from '../../../worker/accounts/users/service';
import { createStore } from '../../../worker/platform/db/store';
import { hashPassword } from '../../../worker/platform/tokens/password';
import { register, registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('legacy-accounts');
const PASSWORD = 'legacy horse';
const passwordHash = hashPassword(PASSWORD);

/** Stores an account as older code left it, straight through the driver. */
async function seedLegacyUser(fields: Document): Promise<Document & { _id: unknown }> {
  const doc = { _id: new ObjectId(), email: `legacy-${crypto.randomUUID().slice(0, 8)}@example.com`, ...fields };
  await api.db((db) => db.collection('users').insertOne(doc));
  return doc;
}

/** A token as the previous service signed it: its claims copied from the stored account, whatever they held. */
function liveToken(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(api.env.JWT_SECRET!));
}

const idOf = (doc: { _id: unknown }) => (doc._id instanceof ObjectId ? doc._id.toHexString() : String(doc._id));

describe('an account stored by older code', () => {
  it('is shown to its owner with dates, name and subscription read as stored', async () => {
    const user = await seedLegacyUser({
      name: null,
      createdAt: '2019-03-04T05:06:07.000Z',
      updatedAt: 1_600_000_000_000,
      emailVerified: 'true',
      subscription: { plan: 'premium', status: 'active', renewsAt: '2027-01-02T03:04:05Z' },
      __v: 0,
    });
    const token = await liveToken({ _id: idOf(user), email: user.email, role: null });
    const me = await api.fetch('/api/users/me', { headers: { 'x-auth-token': token } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      _id: idOf(user),
      name: 'Rider',
      emailVerified: true,
      role: null,
      subscription: { plan: 'premium', status: 'active', renewsAt: '2027-01-02T03:04:05.000Z' },
      createdAt: '2019-03-04T05:06:07.000Z',
      updatedAt: new Date(1_600_000_000_000).toISOString(),
    });
    const subscription = await api.fetch('/api/users/me/subscription', { headers: { 'x-auth-token': token } });
    expect(subscription.status).toBe(200);
    expect(await subscription.json()).toEqual({
      plan: 'premium',
      status: 'active',
      renewsAt: '2027-01-02T03:04:05.000Z',
    });
  });

  it('shows a subscription without a readable plan as the free plan', async () => {
    const user = await seedLegacyUser({ name: 'Rider', subscription: 'premium' });
    const token = await liveToken({ _id: idOf(user), name: 'Rider', email: user.email, imageUri: '', role: null });
    const res = await api.fetch('/api/users/me/subscription', { headers: { 'x-auth-token': token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ plan: 'free', status: 'active' });
  });

  it('signs out everywhere over a token version stored as text, ending the tokens signed before', async () => {
    const user = await seedLegacyUser({ name: 'Versioned', tokenVersion: '0' });
    const token = await liveToken({ _id: idOf(user), name: 'Versioned', email: user.email, imageUri: '', role: null });
    expect((await api.fetch('/api/users/me', { headers: { 'x-auth-token': token } })).status).toBe(200);
    const out = await api.fetch('/api/auth/logout', {
      method: 'POST',
      headers: { 'x-auth-token': token },
      json: { all: true },
    });
    expect(out.status).toBe(200);
    expect((await api.fetch('/api/users/me', { headers: { 'x-auth-token': token } })).status).toBe(400);
    const stored = await api.db((db) => db.collection('users').findOne({ _id: user._id as ObjectId }));
    expect(stored?.tokenVersion).toBe(1);
  });

  it('belongs to its owner when its own _id was stored as a hex string', async () => {
    const hex = new ObjectId().toHexString();
    const user = await seedLegacyUser({ _id: hex, name: 'Hex Rider', createdAt: new Date(), updatedAt: new Date() });
    const token = await liveToken({ _id: hex, name: 'Hex Rider', email: user.email, imageUri: '', role: null });
    const renamed = await api.fetch(`/api/users/${hex}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}` },
      json: { name: 'Renamed Rider' },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ _id: hex, name: 'Renamed Rider' });
  });
});

describe('a Live token the previous service signed from an odd account', () => {
  const oddClaims: [string, Record<string, unknown>][] = [
    ['without name or imageUri', {}],
    ['with null name and imageUri', { name: null, imageUri: null }],
    ['with a number name and an object imageUri', { name: 42, imageUri: { uri: 'x' } }],
    ['with a null email and no role', { email: null, role: undefined }],
  ];

  for (const [label, claims] of oddClaims) {
    it(`passes the auth, account-or-admin and admin checks ${label}`, async () => {
      const user = await seedLegacyUser({ name: 'Odd', role: 'admin', createdAt: new Date(), updatedAt: new Date() });
      const token = await liveToken({ _id: idOf(user), email: user.email, role: 'admin', ...claims });
      expect((await api.fetch('/api/users/me', { headers: { 'x-auth-token': token } })).status).toBe(200);
      const patched = await api.fetch(`/api/users/${idOf(user)}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}` },
        json: { name: 'Still Odd' },
      });
      expect(patched.status).toBe(200);
      expect((await api.fetch('/api/admin/users', { headers: { 'x-auth-token': token } })).status).toBe(200);
    });
  }

  it('is still refused when its signature does not verify', async () => {
    const user = await seedLegacyUser({ name: 'Odd' });
    const forged = await new SignJWT({ _id: idOf(user) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('another secret'));
    const res = await api.fetch('/api/users/me', { headers: { 'x-auth-token': forged } });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('Invalid token.');
  });
});

describe('password sign-in over accounts stored by older code', () => {
  it('finds an address stored with capitals and spaces, and its token passes the checks', async () => {
    await seedLegacyUser({
      email: '  Legacy.Rider+1@Example.COM ',
      name: 7,
      password: await passwordHash,
      createdAt: 'Tue Mar 05 2019 10:00:00 GMT+0000',
    });
    const res = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: 'legacy.rider+1@example.com', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ token: string; user: { name: string; createdAt: string } }>();
    expect(body.user).toMatchObject({ name: '7', createdAt: '2019-03-05T10:00:00.000Z' });
    const me = await api.fetch('/api/users/me', { headers: { 'x-auth-token': body.token } });
    expect(me.status).toBe(200);
  });

  it('signs in an account whose name is not text, and accepts the token it issued', async () => {
    const user = await seedLegacyUser({ name: { first: 'Odd' }, password: await passwordHash, createdAt: 'soon' });
    const res = await api.fetch('/api/auth', { method: 'POST', json: { email: user.email, password: PASSWORD } });
    expect(res.status).toBe(200);
    const { token } = await res.json<{ token: string }>();
    expect((await api.fetch('/api/users/me', { headers: { 'x-auth-token': token } })).status).toBe(200);
  });

  it('lets no one in by an address two older accounts share in other case, and registers no third', async () => {
    const stem = `twin-${crypto.randomUUID().slice(0, 8)}`;
    await seedLegacyUser({ email: `${stem.toUpperCase()}@example.com`, password: await passwordHash });
    await seedLegacyUser({ email: ` ${stem}@example.com`, password: await passwordHash });
    const signIn = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: `${stem}@example.com`, password: PASSWORD },
    });
    expect(signIn.status).toBe(400);
    const registered = await api.fetch('/api/users', {
      method: 'POST',
      json: { name: 'Third', email: `${stem}@example.com`, password: PASSWORD },
    });
    expect(registered.status).toBe(409);
  });

  it('refuses a new account or a changed address that only differs in case from an older one', async () => {
    const legacy = await seedLegacyUser({ email: 'Old.Address@Example.com', password: await passwordHash });
    const registered = await api.fetch('/api/users', {
      method: 'POST',
      json: { name: 'Copy', email: 'old.address@example.com', password: PASSWORD },
    });
    expect(registered.status).toBe(409);
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const moved = await api.fetch(`/api/users/${rider._id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}` },
      json: { email: 'OLD.address@example.com' },
    });
    expect(moved.status).toBe(409);
    // The older account itself may take its own address in the normalised form.
    const own = await api.fetch(`/api/users/${idOf(legacy)}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}` },
      json: { email: 'old.address@example.com' },
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ email: 'old.address@example.com' });
  });
});

describe('the admin users table over accounts stored by older code', () => {
  it('shows every account it can read, leaves out one it cannot, and pages on', async () => {
    const admin = await registerAdmin(api);
    const q = `table${crypto.randomUUID().slice(0, 6)}`;
    await seedLegacyUser({ name: `${q} dates`, createdAt: '2020-01-01', updatedAt: 'yesterday' });
    await seedLegacyUser({ name: `${q} counts`, tokenVersion: '2', role: 'superuser', isBot: 'no' });
    await seedLegacyUser({ _id: 12345, name: `${q} numbered` });
    await seedLegacyUser({
      name: `${q} subscribed`,
      subscription: { plan: 'premium', status: 'active', renewsAt: 'x' },
    });
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Response = await api.fetch(`/api/admin/users?q=${q}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { 'x-auth-token': admin.token },
      });
      expect(res.status).toBe(200);
      const page = await res.json<{ items: { name: string }[]; nextCursor: string | null }>();
      names.push(...page.items.map((user) => user.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 5);
    expect(names.sort()).toEqual([`${q} counts`, `${q} dates`, `${q} subscribed`]);
  });
});

describe('public profiles and rider search over accounts stored by older code', () => {
  it('shows a rider without a name, stored with a hex-string _id', async () => {
    const hex = new ObjectId().toHexString();
    await seedLegacyUser({ _id: hex });
    const viewer = await register(api);
    const res = await api.fetch(`/api/users/${hex}/profile`, { headers: { 'x-auth-token': viewer.token } });
    expect(res.status).toBe(200);
    expect((await res.json<{ user: unknown }>()).user).toEqual({ _id: hex, name: 'Rider' });
  });

  it('answers the public fields of the ids that name riders, whatever form a document stored them in', async () => {
    const hex = new ObjectId().toHexString();
    const plain = await seedLegacyUser({ name: { first: 'Odd' }, imageUri: 12 });
    await seedLegacyUser({ _id: hex, name: 'Hex' });
    const found = await api.db((db) =>
      publicUsers(
        createStore(() => db),
        [undefined, null, 'not-an-id', hex, plain._id, new ObjectId()],
      ),
    );
    expect([...found.values()].map((user) => user.name).sort()).toEqual(['Hex', 'Rider']);
    expect(found.get(hex)?._id.toHexString()).toBe(hex);
  });

  it('finds riders stored without the search fields, by the start of a word of their name, in any case', async () => {
    const word = `Zq${crypto.randomUUID().slice(0, 6).replace(/-/g, '')}`;
    const old = await seedLegacyUser({ name: `Old ${word}Skater` });
    await seedLegacyUser({ name: `Nowhere ${word.slice(1)}`, nameWords: [] });
    const searcher = await register(api);
    const res = await api.fetch(`/api/users/search?q=${encodeURIComponent(word.toLowerCase())}`, {
      headers: { 'x-auth-token': searcher.token },
    });
    expect(res.status).toBe(200);
    const page = await res.json<{ items: { _id: string; name: string }[] }>();
    expect(page.items).toEqual([{ _id: idOf(old), name: `Old ${word}Skater` }]);
  });
});
