import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { call } from '../../support/content';
import { newPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

// Riders' profiles and follow counters over what older code stored, written straight through the driver.
const api = createApi('legacy-profiles');

describe('a profile over documents older code stored', () => {
  it("counts the rider's posts stored with a hex-string userId, and counters stored as strings", async () => {
    const [rider, fan] = [await register(api), await register(api)];
    await api.db(async (db) => {
      await db.collection('feed_posts').insertMany([
        { _id: new ObjectId(), userId: rider._id, text: 'hex' },
        { _id: new ObjectId(), userId: new ObjectId(rider._id), text: 'oid' },
      ]);
      await db
        .collection('users')
        .updateOne({ _id: new ObjectId(rider._id) }, { $set: { followerCount: '3', followingCount: null } });
    });
    const before = await call(api, 'GET', `/api/users/${rider._id}/profile`);
    expect(before.status).toBe(200);
    expect(await before.json<any>()).toMatchObject({ postCount: 2, followerCount: 3, followingCount: 0 });

    const followed = await call(api, 'PUT', `/api/users/${rider._id}/follow`, { as: fan });
    expect(followed.status).toBe(200);
    expect(await followed.json<any>()).toMatchObject({ following: true, followerCount: 4 });
  });
});

describe('follows and homies stored with hex-string ids', () => {
  it("list as the riders' own, feed the following feed, and show the follow", async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api, { name: 'Ben' })];
    await api.db(async (db) => {
      await db.collection('follows').insertMany([
        { _id: new ObjectId(), followerId: ana._id, followedId: ben._id },
        { _id: new ObjectId(), followerId: ben._id, followedId: new ObjectId(ana._id) },
      ]);
      await db.collection('homies').insertOne({
        _id: new ObjectId(),
        riderIds: [ana._id, ben._id],
        pairKey: [ana._id, ben._id].sort().join(':'),
      });
    });
    const post = await newPost(api, ben);
    const feed = await (await call(api, 'GET', '/api/feed?scope=following', { as: ana })).json<any>();
    expect(feed.items.map((item: any) => item._id)).toContain(post._id);

    const followers = await call(api, 'GET', `/api/users/${ben._id}/followers`, { as: ana });
    expect(followers.status).toBe(200);
    expect((await followers.json<any>()).items).toEqual([expect.objectContaining({ name: 'Ana', following: false })]);
    const following = await call(api, 'GET', `/api/users/${ana._id}/following`, { as: ana });
    expect((await following.json<any>()).items).toEqual([expect.objectContaining({ name: 'Ben', following: true })]);
    const homies = await call(api, 'GET', '/api/users/me/homies', { as: ana });
    expect(homies.status).toBe(200);
    expect((await homies.json<any>()).items).toEqual([expect.objectContaining({ name: 'Ben' })]);
    const profile = await (await call(api, 'GET', `/api/users/${ben._id}/profile`, { as: ana })).json<any>();
    expect(profile).toMatchObject({ homieCount: 1, relationship: { following: true, followedBy: true, homie: true } });
  });
});
