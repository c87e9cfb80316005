import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { call } from '../../support/content';
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
