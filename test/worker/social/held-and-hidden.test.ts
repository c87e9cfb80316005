import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { newPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

// Held content and hidden riders are seeded in the database, as the moderation writes would leave them: these
// tests are about every read others make (worker/social/visibility.ts). The set of hidden riders is read on every
// request here, so a change shows at once.
const api = createApi('held-and-hidden', { HIDDEN_RIDERS_CACHE_MS: '0' });

const hold = (collection: 'feed_posts' | 'feed_comments', id: string) =>
  api.db((db) =>
    db
      .collection(collection)
      .updateOne({ _id: new ObjectId(id) }, { $set: { withheld: { reason: 'review', at: new Date() } } }),
  );
const release = (collection: 'feed_posts' | 'feed_comments', id: string) =>
  api.db((db) => db.collection(collection).updateOne({ _id: new ObjectId(id) }, { $unset: { withheld: '' } }));
const setOnUser = (rider: TestAccount, fields: Record<string, unknown>) =>
  api.db((db) => db.collection('users').updateOne({ _id: new ObjectId(rider._id) }, { $set: fields }));
const unsetOnUser = (rider: TestAccount, field: string) =>
  api.db((db) => db.collection('users').updateOne({ _id: new ObjectId(rider._id) }, { $unset: { [field]: '' } }));
const suspension = (until: Date | null) => ({
  suspension: { until, reason: 'abuse', by: new ObjectId(), at: new Date() },
});

/** The post ids of the feed's first page as the reader (or the public) sees it. */
async function feedIds(as?: TestAccount, scope: 'all' | 'following' = 'all'): Promise<string[]> {
  const res = await call(api, 'GET', `/api/feed?limit=50&scope=${scope}`, { as });
  expect(res.status).toBe(200);
  return (await res.json<{ items: { _id: string }[] }>()).items.map((item) => item._id);
}

async function commentIds(postId: string, as?: TestAccount): Promise<string[] | number> {
  const res = await call(api, 'GET', `/api/feed/${postId}/comments`, { as });
  if (res.status !== 200) return res.status;
  return (await res.json<{ items: { _id: string }[] }>()).items.map((item) => item._id);
}

async function savedIds(as: TestAccount): Promise<string[]> {
  const res = await call(api, 'GET', '/api/users/me/saved-posts', { as });
  return (await res.json<{ items: { _id: string }[] }>()).items.map((item) => item._id);
}

async function comment(postId: string, as: TestAccount, text = 'sick line'): Promise<string> {
  const res = await call(api, 'POST', `/api/feed/${postId}/comments`, { as, json: { text } });
  expect(res.status).toBe(201);
  return (await res.json<{ _id: string }>())._id;
}

const follow = async (as: TestAccount, rider: TestAccount) =>
  expect((await call(api, 'PUT', `/api/users/${rider._id}/follow`, { as })).status).toBe(200);

describe('a post held for review', () => {
  it('is left out of every list others read and reads as not found to them, while its author sees it marked held', async () => {
    const [author, follower, stranger] = [await register(api), await register(api), await register(api)];
    await follow(follower, author);
    const post = await newPost(api, author, { text: 'held one' });
    const shown = await newPost(api, author, { text: 'shown one' });
    expect((await call(api, 'PUT', `/api/feed/${post._id}/save`, { as: stranger })).status).toBe(200);
    await hold('feed_posts', post._id);

    for (const reader of [undefined, stranger, follower]) {
      const ids = await feedIds(reader);
      expect(ids).toContain(shown._id);
      expect(ids).not.toContain(post._id);
      expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(404);
      expect(await commentIds(post._id, reader)).toBe(404);
    }
    expect(await feedIds(follower, 'following')).toEqual([shown._id]);
    expect(await savedIds(stranger)).toEqual([]);
    // Others cannot act on it either.
    expect(
      (await call(api, 'PUT', `/api/feed/${post._id}/reactions`, { as: stranger, json: { type: 'love' } })).status,
    ).toBe(404);
    expect(
      (await call(api, 'POST', `/api/feed/${post._id}/comments`, { as: stranger, json: { text: 'hey' } })).status,
    ).toBe(404);
    const profile = await call(api, 'GET', `/api/users/${author._id}/profile`, { as: stranger });
    expect((await profile.json<{ postCount: number }>()).postCount).toBe(1);

    expect(await feedIds(author, 'following')).toEqual([shown._id, post._id]);
    expect((await feedIds(author)).slice(0, 2)).toEqual([shown._id, post._id]);
    const own = await call(api, 'GET', `/api/feed/${post._id}`, { as: author });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ _id: post._id, text: 'held one', held: true });
    expect(await (await call(api, 'GET', `/api/feed/${shown._id}`, { as: author })).json()).not.toHaveProperty('held');
    const ownProfile = await call(api, 'GET', `/api/users/${author._id}/profile`, { as: author });
    expect((await ownProfile.json<{ postCount: number }>()).postCount).toBe(2);

    await release('feed_posts', post._id);
    expect(await feedIds(stranger)).toContain(post._id);
    expect(await feedIds(follower, 'following')).toEqual([shown._id, post._id]);
    expect((await call(api, 'GET', `/api/feed/${post._id}`)).status).toBe(200);
    expect(await savedIds(stranger)).toEqual([post._id]);
  });
});

describe('a comment held for review', () => {
  it("is left out of the post's comments for everyone but its author, the post's author included", async () => {
    const [author, commenter, reader] = [await register(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    const held = await comment(post._id, commenter, 'held comment');
    const other = await comment(post._id, reader, 'fine comment');
    await hold('feed_comments', held);

    for (const as of [undefined, author, reader]) expect(await commentIds(post._id, as)).toEqual([other]);
    const own = await call(api, 'GET', `/api/feed/${post._id}/comments`, { as: commenter });
    const { items } = await own.json<{ items: { _id: string; held?: boolean }[] }>();
    expect(items.map((item) => [item._id, item.held])).toEqual([
      [other, undefined],
      [held, true],
    ]);

    await release('feed_comments', held);
    expect(await commentIds(post._id, reader)).toEqual([other, held]);
  });
});

describe('a suspended rider', () => {
  it('has their posts, comments and profile hidden from others while it lasts, and shown again once lifted', async () => {
    const [rider, fan, other] = [
      await register(api, { name: 'Suspended Sam' }),
      await register(api),
      await register(api),
    ];
    await follow(fan, rider);
    await follow(rider, other);
    const post = await newPost(api, rider, { text: 'by the suspended rider' });
    const onOther = await newPost(api, other, { text: 'by someone else' });
    const theirComment = await comment(onOther._id, rider);
    await call(api, 'PUT', `/api/feed/${post._id}/save`, { as: fan });

    const hiddenEverywhere = async () => {
      for (const reader of [undefined, fan]) {
        expect(await feedIds(reader)).not.toContain(post._id);
        expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(404);
        expect(await commentIds(onOther._id, reader)).toEqual([]);
        expect((await call(api, 'GET', `/api/users/${rider._id}/profile`, { as: reader })).status).toBe(404);
        expect((await call(api, 'GET', `/api/users/${rider._id}/followers`, { as: reader })).status).toBe(404);
        const followers = await call(api, 'GET', `/api/users/${other._id}/followers`, { as: reader });
        expect((await followers.json<{ items: unknown[] }>()).items).toEqual([]);
      }
      expect(await feedIds(fan, 'following')).toEqual([]);
      expect(await savedIds(fan)).toEqual([]);
      const search = await call(api, 'GET', '/api/users/search?q=suspended%20sam', { as: fan });
      expect((await search.json<{ items: unknown[] }>()).items).toEqual([]);
      // The rider's own requests are refused while it lasts (test/worker/accounts/suspension.test.ts): only
      // their account reads, which says why.
      expect((await call(api, 'GET', `/api/users/${rider._id}/profile`, { as: rider })).status).toBe(403);
      expect((await call(api, 'GET', '/api/users/me', { as: rider })).status).toBe(200);
    };

    await setOnUser(rider, suspension(null));
    await hiddenEverywhere();
    await setOnUser(rider, suspension(new Date(Date.now() + 3_600_000)));
    await hiddenEverywhere();

    // A suspension whose end has passed hides nothing, and neither does a lifted one: nothing was rewritten.
    await setOnUser(rider, suspension(new Date(Date.now() - 1000)));
    expect(await feedIds(fan, 'following')).toEqual([post._id]);
    await unsetOnUser(rider, 'suspension');
    for (const reader of [undefined, fan]) {
      expect(await feedIds(reader)).toContain(post._id);
      expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(200);
      expect(await commentIds(onOther._id, reader)).toEqual([theirComment]);
      expect((await call(api, 'GET', `/api/users/${rider._id}/profile`, { as: reader })).status).toBe(200);
    }
    expect(await savedIds(fan)).toEqual([post._id]);
    const search = await call(api, 'GET', '/api/users/search?q=suspended%20sam', { as: fan });
    expect((await search.json<{ items: { _id: string }[] }>()).items.map((item) => item._id)).toEqual([rider._id]);
  });
});

describe('a withheld rider', () => {
  it('is hidden from others the same way until the mark is removed', async () => {
    const [rider, reader] = [await register(api), await register(api)];
    const post = await newPost(api, rider, { text: 'reported rider' });
    await setOnUser(rider, { withheld: { reason: 'reports', at: new Date() } });
    expect(await feedIds(reader)).not.toContain(post._id);
    expect((await call(api, 'GET', `/api/users/${rider._id}/profile`, { as: reader })).status).toBe(404);
    expect((await call(api, 'GET', `/api/feed/${post._id}`)).status).toBe(404);
    expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: rider })).status).toBe(200);
    await unsetOnUser(rider, 'withheld');
    expect(await feedIds(reader)).toContain(post._id);
    expect((await call(api, 'GET', `/api/users/${rider._id}/profile`, { as: reader })).status).toBe(200);
  });
});

describe('the cached set of hidden riders', () => {
  it('is trusted for HIDDEN_RIDERS_CACHE_MS: a suspension shows in lists after it, not at once', async () => {
    const cached = createApi('held-and-hidden-cached', { HIDDEN_RIDERS_CACHE_MS: '3600000' });
    const [rider, reader] = [await register(cached), await register(cached)];
    const post = await newPost(cached, rider);
    const ids = async () =>
      (await (await call(cached, 'GET', '/api/feed', { as: reader })).json<{ items: { _id: string }[] }>()).items.map(
        (item) => item._id,
      );
    expect(await ids()).toEqual([post._id]);
    await cached.db((db) =>
      db.collection('users').updateOne({ _id: new ObjectId(rider._id) }, { $set: suspension(null) }),
    );
    // The set read by the first page is still trusted within the hour.
    expect(await ids()).toEqual([post._id]);
  });

  it("is kept per database: another database's first read is its own", async () => {
    const [first, second] = ['held-and-hidden-db-a', 'held-and-hidden-db-b'].map((label) =>
      createApi(label, { HIDDEN_RIDERS_CACHE_MS: '3600000' }),
    );
    const feedOf = async (api: typeof first) =>
      (await (await call(api!, 'GET', '/api/feed')).json<{ items: { _id: string }[] }>()).items.map((item) => item._id);
    await newPost(first!, await register(first!));
    await feedOf(first!);
    const rider = await register(second!);
    // Stored directly: a suspended rider cannot post, and posting through the route would read this database's set.
    const postId = new ObjectId();
    await second!.db(async (db) => {
      const at = new Date();
      await db.collection('feed_posts').insertOne({
        _id: postId,
        userId: new ObjectId(rider._id),
        text: 'before the suspension',
        media: [],
        counts: { love: 0, respect: 0, comments: 0 },
        createdAt: at,
        updatedAt: at,
      });
      await db.collection('users').updateOne({ _id: new ObjectId(rider._id) }, { $set: suspension(null) });
    });
    expect(await feedOf(second!)).not.toContain(postId.toHexString());
  });
});
