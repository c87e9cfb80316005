import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { newPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('rider-connections');

const follow = async (id: string, as: TestAccount) =>
  expect((await call(api, 'PUT', `/api/users/${id}/follow`, { as })).status).toBe(200);
const block = async (id: string, as: TestAccount) =>
  expect((await call(api, 'PUT', `/api/users/me/blocks/${id}`, { as })).status).toBe(200);
const profile = (id: string, as?: TestAccount) => call(api, 'GET', `/api/users/${id}/profile`, { as });
const found = async (q: string, as: TestAccount) =>
  (await everyPage<{ _id: string }>(api, `/api/users/search?q=${encodeURIComponent(q)}`, 2, as))
    .flat()
    .map((user) => user._id);
const counters = (id: string) =>
  api.db(async (db) => {
    const user = await db.collection('users').findOne({ _id: new ObjectId(id) });
    return { followerCount: user?.followerCount ?? 0, followingCount: user?.followingCount ?? 0 };
  });

describeAccessChecks(api, [{ method: 'GET', path: '/api/users/search', check: 'auth' }]);

describe('rider profiles', () => {
  it('shows the public user, the counts and, for a signed-in caller, how you are connected', async () => {
    const [rider, fan, other] = [await register(api, { name: 'Kai' }), await register(api), await register(api)];
    await follow(rider._id, fan);
    await follow(fan._id, rider);
    await follow(other._id, rider);
    await newPost(api, rider);
    const res = await profile(rider._id, fan);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      user: { _id: rider._id, name: 'Kai' },
      followerCount: 1,
      followingCount: 2,
      homieCount: 1,
      postCount: 1,
      relationship: { following: true, followedBy: true, homie: true },
    });
    const anonymous = await (await profile(rider._id)).json<Record<string, unknown>>();
    expect(anonymous).not.toHaveProperty('relationship');
    expect(JSON.stringify(anonymous)).not.toContain(rider.email);
    expect((await profile(new ObjectId().toHexString())).status).toBe(404);
  });
});

describe('rider search', () => {
  it('finds a prefix of each word typed, any case and accents, never inside a word or by email', async () => {
    const tag = crypto.randomUUID().slice(0, 6).replace(/\d/g, 'x');
    const searcher = await register(api);
    const jose = await register(api, { name: `José Ramírez ${tag}`, email: `zzmail-${tag}@example.com` });
    const other = await register(api, { name: `Josefina ${tag}` });
    expect(await found(`jose ${tag}`, searcher)).toEqual([other._id, jose._id]);
    expect(await found(`RAM ${tag}`, searcher)).toEqual([jose._id]);
    expect(await found(`jose ram ${tag}`, searcher)).toEqual([jose._id]);
    expect(await found(`Ramírez ${tag}`, searcher)).toEqual([jose._id]);
    expect(await found(`mirez ${tag}`, searcher)).toEqual([]);
    expect(await found(`zzmail-${tag}`, searcher)).toEqual([]);
  });

  it('follows a change of name', async () => {
    const tag = crypto.randomUUID().slice(0, 6).replace(/\d/g, 'y');
    const [searcher, rider] = [await register(api), await register(api, { name: `Old ${tag}` })];
    const renamed = await call(api, 'PATCH', '/api/users/me', { as: rider, json: { name: `Élodie ${tag}` } });
    expect(renamed.status).toBe(200);
    expect(await found(`elo ${tag}`, searcher)).toEqual([rider._id]);
    expect(await found(`old ${tag}`, searcher)).toEqual([]);
  });

  it('refuses a query under 2 characters or without a letter, naming q', async () => {
    const searcher = await register(api);
    for (const q of ['a', ' b ', '!!!']) {
      const res = await call(api, 'GET', `/api/users/search?q=${encodeURIComponent(q)}`, { as: searcher });
      expect(res.status).toBe(400);
      expect((await res.json<{ details: { field: string }[] }>()).details.map((d) => d.field)).toEqual(['q']);
    }
  });
});

describe('rider search limits', () => {
  // The suite raises the per-address count (vitest.config.ts); this one sets both low to reach them fast.
  const limited = createApi('rider-search-limit', {
    RIDER_SEARCHES_PER_MINUTE: '5',
    RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE: '8',
  });
  const octet = () => Math.floor(Math.random() * 250);
  const randomIp = () => `10.${octet()}.${octet()}.${octet()}`;
  const search = (on: typeof api, as: TestAccount, ip: string) =>
    on.fetch('/api/users/search?q=kai', { headers: { 'x-auth-token': as.token, 'cf-connecting-ip': ip } });
  const statusesOf = async (on: typeof api, as: TestAccount, ip: string, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await search(on, as, ip)).status);
    return statuses;
  };

  it(`refuses a rider's search past ${LIMITS.riderSearch.perRider} a minute with 429 and Retry-After, from any address`, async () => {
    const rider = await register(api);
    const ip = randomIp();
    const allowed = await Promise.all(
      Array.from({ length: LIMITS.riderSearch.perRider }, () => search(api, rider, ip)),
    );
    expect(allowed.every((res) => res.status === 200)).toBe(true);
    const refused = await search(api, rider, randomIp());
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LIMITS.riderSearch.windowMs / 1000);
    expect((await refused.json<{ error: string }>()).error).toMatch(/Too many searches/);
    expect((await search(api, await register(api), randomIp())).status).toBe(200);
  });

  it('refuses every rider of an address past its per-address count, and only that address', async () => {
    const ip = randomIp();
    const [first, second, third] = [await register(limited), await register(limited), await register(limited)];
    expect(await statusesOf(limited, first, ip, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await statusesOf(limited, first, randomIp(), 1)).toEqual([429]);
    expect(await statusesOf(limited, second, ip, 4)).toEqual([200, 200, 200, 429]);
    expect((await search(limited, third, ip)).status).toBe(429);
    expect((await search(limited, third, randomIp())).status).toBe(200);
  });
});

describe('the following feed', () => {
  it('holds posts by riders you follow and your own, newest first, with the feed’s item shape', async () => {
    const [reader, followed, stranger] = [await register(api), await register(api), await register(api)];
    await follow(followed._id, reader);
    const posts = [
      await newPost(api, followed),
      await newPost(api, stranger),
      await newPost(api, reader),
      await newPost(api, followed),
    ];
    const pages = await everyPage<{ _id: string; saved?: boolean }>(api, '/api/feed?scope=following', 2, reader);
    expect(pages.flat().map((post) => post._id)).toEqual([posts[3]!._id, posts[2]!._id, posts[0]!._id]);
    expect(pages[0]![0]).toMatchObject({ saved: false, myReaction: null });
    expect((await call(api, 'GET', '/api/feed?scope=following')).status).toBe(401);
    expect((await api.fetch('/api/feed?scope=following', { headers: { 'x-auth-token': 'bad' } })).status).toBe(400);
    expect((await call(api, 'GET', '/api/feed?scope=everyone', { as: reader })).status).toBe(400);
  });
});

describe('blocks and deletion', () => {
  it('blocking ends follows both ways with the counts, and hides each from the other', async () => {
    const tag = crypto.randomUUID().slice(0, 6).replace(/\d/g, 'z');
    const [rider, other] = [
      await register(api, { name: `Blocker ${tag}` }),
      await register(api, { name: `Blocked ${tag}` }),
    ];
    await follow(other._id, rider);
    await follow(rider._id, other);
    await block(other._id, rider);
    expect(await counters(rider._id)).toEqual({ followerCount: 0, followingCount: 0 });
    expect(await counters(other._id)).toEqual({ followerCount: 0, followingCount: 0 });
    expect(await api.db((db) => db.collection('homies').countDocuments({ riderIds: new ObjectId(rider._id) }))).toBe(0);
    for (const [from, to] of [
      [rider, other],
      [other, rider],
    ] as const) {
      expect((await call(api, 'PUT', `/api/users/${to._id}/follow`, { as: from })).status).toBe(404);
      expect((await profile(to._id, from)).status).toBe(404);
      expect(await found(`b ${tag}`, from)).toEqual([from._id]);
    }
  });

  it('blocked riders never appear in the following feed', async () => {
    const [reader, followed] = [await register(api), await register(api)];
    await follow(followed._id, reader);
    await newPost(api, followed);
    await block(followed._id, reader);
    expect((await everyPage(api, '/api/feed?scope=following', 5, reader)).flat()).toEqual([]);
  });

  it('account deletion removes the rider’s follows both ways and corrects the others’ counts', async () => {
    const [gone, fan, idol] = [await register(api), await register(api), await register(api)];
    await follow(gone._id, fan);
    await follow(fan._id, gone);
    await follow(idol._id, gone);
    const res = await api.fetch(`/api/users/${gone._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${gone.token}` },
    });
    expect(res.status).toBe(200);
    expect(await counters(fan._id)).toEqual({ followerCount: 0, followingCount: 0 });
    expect(await counters(idol._id)).toEqual({ followerCount: 0, followingCount: 0 });
    const goneId = new ObjectId(gone._id);
    expect(
      await api.db(async (db) => ({
        follows: await db
          .collection('follows')
          .countDocuments({ $or: [{ followerId: goneId }, { followedId: goneId }] }),
        homies: await db.collection('homies').countDocuments({ riderIds: goneId }),
      })),
    ).toEqual({ follows: 0, homies: 0 });
  });
});
