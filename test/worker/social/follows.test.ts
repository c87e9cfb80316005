import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage, refusedFields } from '../../support/content';
import { createApi } from '../../support/worker-api';

const api = createApi('follows');

type State = { following: boolean; homie: boolean; followerCount: number; followingCount: number };
const followRes = (id: string, as: TestAccount) => call(api, 'PUT', `/api/users/${id}/follow`, { as });
const unfollowRes = (id: string, as: TestAccount) => call(api, 'DELETE', `/api/users/${id}/follow`, { as });
const followed = async (id: string, as: TestAccount) => {
  const res = await followRes(id, as);
  expect(res.status).toBe(200);
  return res.json<State>();
};
const unfollowed = async (id: string, as: TestAccount) => {
  const res = await unfollowRes(id, as);
  expect(res.status).toBe(200);
  return res.json<State>();
};
const ids = async (path: string, as?: TestAccount) =>
  (await everyPage<{ _id: string }>(api, path, 2, as)).flat().map((user) => user._id);

/** The stored counters of a rider beside the follow rows that name them. */
const countsAndRows = (id: string) =>
  api.db(async (db) => {
    const _id = new ObjectId(id);
    const user = await db.collection('users').findOne({ _id });
    return {
      followerCount: user?.followerCount ?? 0,
      followingCount: user?.followingCount ?? 0,
      followerRows: await db.collection('follows').countDocuments({ followedId: _id }),
      followingRows: await db.collection('follows').countDocuments({ followerId: _id }),
    };
  });
const serverEvents = (name: string, userId: string) =>
  api.db((db) =>
    db
      .collection('analytics_events')
      .find({ name, userId: new ObjectId(userId), platform: 'server' })
      .map((event) => event.properties.riderId as string)
      .toArray(),
  );

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/users/:id/follow', check: 'auth' },
  { method: 'DELETE', path: '/api/users/:id/follow', check: 'auth' },
  { method: 'GET', path: '/api/users/me/homies', check: 'auth' },
]);

describe('following riders', () => {
  it("follows and unfollows, idempotent, answering the followed rider's counts", async () => {
    const [rider, other] = [await register(api), await register(api)];
    for (let i = 0; i < 2; i++) {
      expect(await followed(other._id, rider)).toEqual({
        following: true,
        homie: false,
        followerCount: 1,
        followingCount: 0,
      });
    }
    expect(await countsAndRows(rider._id)).toEqual({
      followerCount: 0,
      followingCount: 1,
      followerRows: 0,
      followingRows: 1,
    });
    for (let i = 0; i < 2; i++) {
      expect(await unfollowed(other._id, rider)).toEqual({
        following: false,
        homie: false,
        followerCount: 0,
        followingCount: 0,
      });
    }
    expect(await countsAndRows(rider._id)).toMatchObject({ followingCount: 0, followingRows: 0 });
  });

  it('refuses following yourself (400 naming id), unknown and deleted riders (404), and malformed ids', async () => {
    const [rider, gone] = [await register(api), await register(api)];
    const self = await followRes(rider._id, rider);
    expect(self.status).toBe(400);
    expect(await refusedFields(self)).toEqual(['id']);
    expect((await followRes(new ObjectId().toHexString(), rider)).status).toBe(404);
    await api.db((db) => db.collection('users').deleteOne({ _id: new ObjectId(gone._id) }));
    expect((await followRes(gone._id, rider)).status).toBe(404);
    expect((await unfollowRes(gone._id, rider)).status).toBe(404);
    const bad = await followRes('nope', rider);
    expect(bad.status).toBe(400);
    expect(await refusedFields(bad)).toEqual(['id']);
    expect(await countsAndRows(rider._id)).toMatchObject({ followingCount: 0, followingRows: 0 });
  });

  it('keeps counts equal to the stored follows when 20 riders follow one rider at once', async () => {
    const star = await register(api);
    const fans = await Promise.all(Array.from({ length: 20 }, () => register(api)));
    const answers = await Promise.all(fans.map((fan) => followRes(star._id, fan)));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect(await countsAndRows(star._id)).toEqual({
      followerCount: 20,
      followingCount: 0,
      followerRows: 20,
      followingRows: 0,
    });
  });

  it('keeps counts equal to the stored follows when one rider follows and unfollows in parallel', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 ? unfollowRes : followRes)(other._id, rider));
    expect((await Promise.all(calls)).map((res) => res.status)).toEqual(Array(20).fill(200));
    const [mine, theirs] = [await countsAndRows(rider._id), await countsAndRows(other._id)];
    expect(mine.followingCount).toBe(mine.followingRows);
    expect(theirs.followerCount).toBe(theirs.followerRows);
    expect(mine.followingRows).toBeLessThanOrEqual(1);
  });

  it('lists followers and following newest first, with the caller’s own following flag', async () => {
    const [rider, a, b, c] = [await register(api), await register(api), await register(api), await register(api)];
    for (const fan of [a, b, c]) await followed(rider._id, fan);
    await followed(c._id, rider);
    await followed(b._id, rider);
    expect(await ids(`/api/users/${rider._id}/followers`)).toEqual([c._id, b._id, a._id]);
    expect(await ids(`/api/users/${rider._id}/following`)).toEqual([b._id, c._id]);
    const res = await call(api, 'GET', `/api/users/${rider._id}/followers`, { as: rider });
    const { items } = await res.json<{ items: Record<string, unknown>[] }>();
    expect(items.map((item) => [item._id, item.following])).toEqual([
      [c._id, true],
      [b._id, true],
      [a._id, false],
    ]);
    expect(Object.keys(items[0]!).sort()).toEqual(['_id', 'following', 'name']);
    const anonymous = await (await call(api, 'GET', `/api/users/${rider._id}/following`)).json<{ items: object[] }>();
    expect(anonymous.items[0]).not.toHaveProperty('following');
    expect((await call(api, 'GET', `/api/users/${new ObjectId().toHexString()}/followers`)).status).toBe(404);
  });
});

describe("a third rider's lists across a block", () => {
  it('show neither rider of a block to the other, either way, pages full; to anyone else both', async () => {
    const [blocker, blocked, third, bystander] = [
      await register(api),
      await register(api),
      await register(api),
      await register(api),
    ];
    const fans = [await register(api), await register(api)];
    // The blocker follows and is followed last: the newest row of each list, on the first page.
    for (const fan of [...fans, blocked, blocker]) await followed(third._id, fan);
    for (const rider of [...fans, blocked, blocker]) await followed(rider._id, third);
    const blockRes = await call(api, 'PUT', `/api/users/me/blocks/${blocked._id}`, { as: blocker });
    expect(blockRes.status).toBe(200);
    const everyone = [...fans, blocked, blocker].map((rider) => rider._id).reverse();
    for (const list of ['followers', 'following']) {
      const path = `/api/users/${third._id}/${list}`;
      expect(await ids(path, blocked)).toEqual(everyone.filter((id) => id !== blocker._id));
      expect(await ids(path, blocker)).toEqual(everyone.filter((id) => id !== blocked._id));
      expect(await ids(path, bystander)).toEqual(everyone);
      expect(await ids(path)).toEqual(everyone);
      // A first page of two holds two riders: the hidden one is left out by the query, not from the page.
      const first = await call(api, 'GET', `${path}?limit=2`, { as: blocked });
      expect((await first.json<{ items: object[] }>()).items).toHaveLength(2);
    }
  });
});

describe('homies', () => {
  it('forms when the second follow lands and ends when either unfollows, listed newest first', async () => {
    const [rider, a, b] = [await register(api), await register(api), await register(api)];
    expect((await followed(a._id, rider)).homie).toBe(false);
    expect((await followed(rider._id, a)).homie).toBe(true);
    await followed(b._id, rider);
    await followed(rider._id, b);
    expect(await ids('/api/users/me/homies', rider)).toEqual([b._id, a._id]);
    expect(await ids('/api/users/me/homies', a)).toEqual([rider._id]);
    expect((await unfollowed(rider._id, a)).homie).toBe(false);
    expect(await ids('/api/users/me/homies', rider)).toEqual([b._id]);
    expect(await ids('/api/users/me/homies', a)).toEqual([]);
  });

  it('forms one pair when both follow each other at the same moment', async () => {
    const [a, b] = [await register(api), await register(api)];
    await Promise.all([followRes(b._id, a), followRes(a._id, b)]);
    expect(await ids('/api/users/me/homies', a)).toEqual([b._id]);
    expect(await api.db((db) => db.collection('homies').countDocuments({ riderIds: new ObjectId(a._id) }))).toBe(1);
    expect(await serverEvents('homie_connected', a._id)).toEqual([b._id]);
  });

  it('records rider_followed for each new follow and homie_connected for both riders each time they connect', async () => {
    const [a, b] = [await register(api), await register(api)];
    await followed(b._id, a);
    await followed(b._id, a);
    await followed(a._id, b);
    await unfollowed(b._id, a);
    await followed(b._id, a);
    expect(await serverEvents('rider_followed', a._id)).toEqual([b._id, b._id]);
    expect(await serverEvents('rider_followed', b._id)).toEqual([a._id]);
    expect(await serverEvents('homie_connected', a._id)).toEqual([b._id, b._id]);
    expect(await serverEvents('homie_connected', b._id)).toEqual([a._id, a._id]);
  });
});
