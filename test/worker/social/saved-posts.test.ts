import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { newPost, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('saved-posts');

const save = (postId: string, as: TestAccount) => call(api, 'PUT', `/api/feed/${postId}/save`, { as });
const unsave = (postId: string, as: TestAccount) => call(api, 'DELETE', `/api/feed/${postId}/save`, { as });
const savedIds = async (as: TestAccount) =>
  (await everyPage<{ _id: string }>(api, '/api/users/me/saved-posts', 2, as)).flat().map((post) => post._id);
const storedSaves = (userId: string) =>
  api.db((db) => db.collection('saved_posts').countDocuments({ userId: new ObjectId(userId) }));

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/feed/:postId/save', check: 'auth' },
  { method: 'DELETE', path: '/api/feed/:postId/save', check: 'auth' },
  { method: 'GET', path: '/api/users/me/saved-posts', check: 'auth' },
]);

describe('saved posts', () => {
  it('saves and unsaves a post, both idempotent', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    for (let i = 0; i < 2; i++) {
      const res = await save(post._id, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ postId: post._id, saved: true });
    }
    expect(await storedSaves(rider._id)).toBe(1);
    expect(await readPost(api, post._id, rider)).toMatchObject({ saved: true });
    for (let i = 0; i < 2; i++) {
      const res = await unsave(post._id, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ postId: post._id, saved: false });
    }
    expect(await storedSaves(rider._id)).toBe(0);
    expect(await readPost(api, post._id, rider)).toMatchObject({ saved: false });
  });

  it('stores one save when the same post is saved 10 times at once', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const results = await Promise.all(Array.from({ length: 10 }, () => save(post._id, rider)));
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(await storedSaves(rider._id)).toBe(1);
  });

  it('answers 404 for an unknown post, storing nothing', async () => {
    const rider = await register(api);
    const postId = new ObjectId().toHexString();
    expect((await save(postId, rider)).status).toBe(404);
    expect((await unsave(postId, rider)).status).toBe(404);
    expect(await storedSaves(rider._id)).toBe(0);
  });

  it('lists only your saved posts, newest saved first across pages, as post views', async () => {
    const [author, rider, other] = [await register(api), await register(api), await register(api)];
    const posts: { _id: string }[] = [];
    for (let i = 0; i < 4; i++) posts.push(await newPost(api, author, { text: `p${i}` }));
    for (const index of [2, 0, 3, 1]) await save(posts[index]._id, rider);
    await save(posts[0]._id, other);
    await call(api, 'PUT', `/api/feed/${posts[1]._id}/reactions`, { as: rider, json: { type: 'love' } });

    expect(await savedIds(rider)).toEqual([1, 3, 0, 2].map((index) => posts[index]._id));
    expect(await savedIds(other)).toEqual([posts[0]._id]);
    const first = (await (await call(api, 'GET', '/api/users/me/saved-posts?limit=1', { as: rider })).json<any>())
      .items[0];
    expect(first).toMatchObject({
      _id: posts[1]._id,
      author: { _id: author._id },
      text: 'p1',
      myReaction: 'love',
      saved: true,
      counts: { love: 1, respect: 0, comments: 0 },
    });
  });

  it('drops a saved post once it is deleted', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const [kept, doomed] = [await newPost(api, author), await newPost(api, author)];
    await save(kept._id, rider);
    await save(doomed._id, rider);
    expect((await call(api, 'DELETE', `/api/feed/${doomed._id}`, { as: author })).status).toBe(200);
    expect(await savedIds(rider)).toEqual([kept._id]);
    expect(await storedSaves(rider._id)).toBe(1);
  });
});

describe('saved posts and blocks', () => {
  it('hides a saved post by a rider you blocked, and shows it again once unblocked', async () => {
    const [rider, author] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    await save(post._id, rider);
    expect(await savedIds(rider)).toEqual([post._id]);
    expect((await call(api, 'PUT', `/api/users/me/blocks/${author._id}`, { as: rider })).status).toBe(200);
    expect(await savedIds(rider)).toEqual([]);
    await call(api, 'DELETE', `/api/users/me/blocks/${author._id}`, { as: rider });
    expect(await savedIds(rider)).toEqual([post._id]);
  });
});
