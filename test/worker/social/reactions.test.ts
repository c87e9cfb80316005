import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, refusedFields } from '../../support/content';
import { newPost, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('reactions');

const react = (postId: string, as: TestAccount, type: unknown) =>
  call(api, 'PUT', `/api/feed/${postId}/reactions`, { as, json: { type } });
const unreact = (postId: string, as: TestAccount) => call(api, 'DELETE', `/api/feed/${postId}/reactions`, { as });
const storedReactions = (postId: string) =>
  api.db((db) =>
    db
      .collection('reactions')
      .find({ postId: new ObjectId(postId) })
      .toArray(),
  );

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/feed/:postId/reactions', check: 'auth', json: { type: 'love' } },
  { method: 'DELETE', path: '/api/feed/:postId/reactions', check: 'auth' },
]);

describe('reactions', () => {
  it('counts a reaction, switches its type without counting twice, and takes it back', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);

    const loved = await react(post._id, rider, 'love');
    expect(loved.status).toBe(200);
    expect(await loved.json()).toEqual({
      postId: post._id,
      myReaction: 'love',
      counts: { love: 1, respect: 0, comments: 0 },
    });
    expect((await (await react(post._id, rider, 'love')).json<any>()).counts).toEqual({
      love: 1,
      respect: 0,
      comments: 0,
    });

    const switched = await (await react(post._id, rider, 'respect')).json<any>();
    expect(switched).toEqual({ postId: post._id, myReaction: 'respect', counts: { love: 0, respect: 1, comments: 0 } });
    expect(await storedReactions(post._id)).toHaveLength(1);
    expect(await readPost(api, post._id, rider)).toMatchObject({ myReaction: 'respect', counts: { respect: 1 } });

    const removed = await unreact(post._id, rider);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({
      postId: post._id,
      myReaction: null,
      counts: { love: 0, respect: 0, comments: 0 },
    });
    const again = await unreact(post._id, rider);
    expect(again.status).toBe(200);
    expect((await again.json<any>()).counts).toEqual({ love: 0, respect: 0, comments: 0 });
    expect(await readPost(api, post._id, rider)).toMatchObject({ myReaction: null });
  });

  it.each([[{}], [{ type: 'like' }], [{ type: 'love', extra: 1 }]])('refuses %j with 400', async (json) => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const res = await call(api, 'PUT', `/api/feed/${post._id}/reactions`, { as: rider, json });
    expect(res.status).toBe(400);
    expect((await refusedFields(res)).length).toBeGreaterThan(0);
    expect(await storedReactions(post._id)).toHaveLength(0);
  });

  it('answers 404 on an unknown post, storing no reaction', async () => {
    const rider = await register(api);
    const postId = new ObjectId().toHexString();
    expect((await react(postId, rider, 'love')).status).toBe(404);
    expect((await unreact(postId, rider)).status).toBe(404);
    expect(await storedReactions(postId)).toHaveLength(0);
  });

  it('keeps the counts exact when 20 riders react at once', async () => {
    const author = await register(api);
    const post = await newPost(api, author);
    const riders = await Promise.all(Array.from({ length: 20 }, () => register(api)));
    const types = riders.map((_, i) => (i % 4 === 0 ? 'respect' : 'love'));
    const results = await Promise.all(riders.map((rider, i) => react(post._id, rider, types[i])));
    expect(results.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect((await readPost(api, post._id)).counts).toEqual({ love: 15, respect: 5, comments: 0 });

    await Promise.all(riders.slice(0, 10).map((rider) => unreact(post._id, rider)));
    const left = await storedReactions(post._id);
    const expected = {
      love: left.filter((r) => r.type === 'love').length,
      respect: left.filter((r) => r.type === 'respect').length,
    };
    expect(left).toHaveLength(10);
    expect((await readPost(api, post._id)).counts).toEqual({ ...expected, comments: 0 });
  });

  it('keeps one reaction and matching counts when one rider switches love and respect 10 times at once', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => react(post._id, rider, i % 2 ? 'respect' : 'love')),
    );
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(200));
    const stored = await storedReactions(post._id);
    expect(stored).toHaveLength(1);
    const final = stored[0]!.type as 'love' | 'respect';
    const counts = (await readPost(api, post._id)).counts;
    expect(counts.love + counts.respect).toBe(1);
    expect(counts[final]).toBe(1);
    expect((await readPost(api, post._id, rider)).myReaction).toBe(final);
  });
});
