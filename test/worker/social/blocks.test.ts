import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage, refusedFields } from '../../support/content';
import { newPost, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('blocks');

const block = (userId: string, as: TestAccount) => call(api, 'PUT', `/api/users/me/blocks/${userId}`, { as });
const unblock = (userId: string, as: TestAccount) => call(api, 'DELETE', `/api/users/me/blocks/${userId}`, { as });
const blockedIds = async (as: TestAccount) =>
  (await everyPage<{ _id: string }>(api, '/api/users/me/blocks', 2, as)).flat().map((user) => user._id);
const storedBlocks = (userId: string) =>
  api.db((db) => db.collection('user_blocks').countDocuments({ userId: new ObjectId(userId) }));

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/users/me/blocks/:userId', check: 'auth' },
  { method: 'DELETE', path: '/api/users/me/blocks/:userId', check: 'auth' },
  { method: 'GET', path: '/api/users/me/blocks', check: 'auth' },
]);

describe('blocks', () => {
  it('blocks and unblocks a rider, both idempotent', async () => {
    const [rider, other] = [await register(api), await register(api)];
    for (let i = 0; i < 2; i++) {
      const res = await block(other._id, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ userId: other._id, blocked: true });
    }
    expect(await storedBlocks(rider._id)).toBe(1);
    for (let i = 0; i < 2; i++) {
      const res = await unblock(other._id, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ userId: other._id, blocked: false });
    }
    expect(await storedBlocks(rider._id)).toBe(0);
  });

  it('stores one block when the same rider is blocked 10 times at once', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const results = await Promise.all(Array.from({ length: 10 }, () => block(other._id, rider)));
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(await storedBlocks(rider._id)).toBe(1);
  });

  it('refuses to block yourself with a 400 naming userId', async () => {
    const rider = await register(api);
    const res = await block(rider._id, rider);
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toEqual(['userId']);
    expect(await storedBlocks(rider._id)).toBe(0);
  });

  it('answers 404 for an unknown rider and 400 for a malformed id, storing nothing', async () => {
    const rider = await register(api);
    expect((await block(new ObjectId().toHexString(), rider)).status).toBe(404);
    const bad = await block('not-an-id', rider);
    expect(bad.status).toBe(400);
    expect(await refusedFields(bad)).toEqual(['userId']);
    expect(await storedBlocks(rider._id)).toBe(0);
  });

  it('lists only your blocks as public users, newest first across pages', async () => {
    const [rider, someoneElse] = [await register(api), await register(api)];
    const others = [await register(api), await register(api), await register(api)];
    for (const other of others) expect((await block(other._id, rider)).status).toBe(200);
    expect((await block(others[0]!._id, someoneElse)).status).toBe(200);
    expect(await blockedIds(rider)).toEqual(others.map((other) => other._id).reverse());
    const res = await call(api, 'GET', '/api/users/me/blocks', { as: rider });
    const [first] = (await res.json<{ items: Record<string, unknown>[] }>()).items;
    expect(Object.keys(first!).sort()).toEqual(['_id', 'blockedAt', 'name']);
  });

  it('removes blocks in both directions when either rider deletes their account', async () => {
    const [rider, blocked, blocker] = [await register(api), await register(api), await register(api)];
    expect((await block(blocked._id, rider)).status).toBe(200);
    expect((await block(rider._id, blocker)).status).toBe(200);
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    expect(await storedBlocks(rider._id)).toBe(0);
    expect(await storedBlocks(blocker._id)).toBe(0);
  });
});

const BLOCKED_TEXT = { error: 'You cannot message this rider.' };
const startConversation = (as: TestAccount, other: TestAccount) =>
  call(api, 'POST', '/api/conversations', { as, json: { participantIds: [other._id] } });
const send = (conversationId: string, as: TestAccount) =>
  call(api, 'POST', `/api/conversations/${conversationId}/messages`, { as, json: { text: 'Session tomorrow?' } });
const feedIds = async (as?: TestAccount) =>
  (await everyPage<{ _id: string }>(api, '/api/feed', 50, as)).flat().map((post) => post._id);
const commentIds = async (postId: string, as?: TestAccount) =>
  (await everyPage<{ _id: string }>(api, `/api/feed/${postId}/comments`, 2, as)).flat().map((item) => item._id);
const comment = async (postId: string, as: TestAccount) => {
  const res = await call(api, 'POST', `/api/feed/${postId}/comments`, { as, json: { text: 'Clean!' } });
  expect(res.status).toBe(201);
  return (await res.json<{ _id: string }>())._id;
};

describe('block effects on direct messages', () => {
  for (const direction of ['the caller blocked the other', 'the other blocked the caller'] as const) {
    it(`refuses to start a conversation when ${direction}`, async () => {
      const [caller, other] = [await register(api), await register(api)];
      const [blocker, blocked] = direction === 'the caller blocked the other' ? [caller, other] : [other, caller];
      expect((await block(blocked._id, blocker)).status).toBe(200);
      const res = await startConversation(caller, other);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(BLOCKED_TEXT);
      expect(
        await api.db((db) =>
          db.collection('conversations').countDocuments({ participantIds: new ObjectId(caller._id) }),
        ),
      ).toBe(0);
    });

    it(`refuses a message in an existing conversation when ${direction}, and allows it again after unblocking`, async () => {
      const [caller, other] = [await register(api), await register(api)];
      const opened = await startConversation(caller, other);
      expect(opened.status).toBe(201);
      const { _id } = await opened.json<{ _id: string }>();
      const [blocker, blocked] = direction === 'the caller blocked the other' ? [caller, other] : [other, caller];
      expect((await block(blocked._id, blocker)).status).toBe(200);
      for (const sender of [caller, other]) {
        const res = await send(_id, sender);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual(BLOCKED_TEXT);
      }
      expect(
        await api.db((db) => db.collection('dm_messages').countDocuments({ conversationId: new ObjectId(_id) })),
      ).toBe(0);
      expect((await unblock(blocked._id, blocker)).status).toBe(200);
      expect((await send(_id, caller)).status).toBe(201);
    });
  }
});

describe('blocks outside a conversation', () => {
  it('refuse no message: a block between the sender and a rider who is not a participant, either way', async () => {
    const [caller, other, outsider, another] = [
      await register(api),
      await register(api),
      await register(api),
      await register(api),
    ];
    const opened = await startConversation(caller, other);
    const { _id } = await opened.json<{ _id: string }>();
    expect((await block(outsider._id, caller)).status).toBe(200);
    expect((await block(caller._id, another)).status).toBe(200);
    expect((await block(other._id, outsider)).status).toBe(200);
    for (const sender of [caller, other]) expect((await send(_id, sender)).status).toBe(201);
  });
});

describe('block effects on the feed', () => {
  it("hides the blocked rider's posts from the blocker, in the feed and as one post, but not from others", async () => {
    const [blocker, blocked, bystander] = [await register(api), await register(api), await register(api)];
    const hiddenPost = await newPost(api, blocked);
    const shownPost = await newPost(api, bystander);
    expect((await block(blocked._id, blocker)).status).toBe(200);

    const seen = await feedIds(blocker);
    expect(seen).toContain(shownPost._id);
    expect(seen).not.toContain(hiddenPost._id);
    expect(await feedIds(bystander)).toContain(hiddenPost._id);
    expect(await feedIds()).toContain(hiddenPost._id);
    expect((await call(api, 'GET', `/api/feed/${hiddenPost._id}`, { as: blocker })).status).toBe(404);
    expect((await call(api, 'GET', `/api/feed/${hiddenPost._id}`, { as: bystander })).status).toBe(200);

    expect((await unblock(blocked._id, blocker)).status).toBe(200);
    expect(await feedIds(blocker)).toContain(hiddenPost._id);
  });

  it("hides the blocked rider's comments from the blocker, and their post's comments altogether", async () => {
    const [blocker, blocked, author] = [await register(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    const hidden = await comment(post._id, blocked);
    const shown = [await comment(post._id, author), await comment(post._id, blocker), await comment(post._id, author)];
    const blockedPost = await newPost(api, blocked);
    expect((await block(blocked._id, blocker)).status).toBe(200);

    expect(await commentIds(post._id, blocker)).toEqual([...shown].reverse());
    expect(await commentIds(post._id, author)).toEqual([hidden, ...shown].reverse());
    expect(await commentIds(post._id)).toContain(hidden);
    const res = await call(api, 'GET', `/api/feed/${blockedPost._id}/comments`, { as: blocker });
    expect(res.status).toBe(404);
    expect((await call(api, 'GET', `/api/feed/${blockedPost._id}/comments`, { as: author })).status).toBe(200);
  });
});

const reactTo = (postId: string, as: TestAccount, method: 'PUT' | 'DELETE' = 'PUT') =>
  call(api, method, `/api/feed/${postId}/reactions`, { as, ...(method === 'PUT' ? { json: { type: 'love' } } : {}) });
const saveOf = (postId: string, as: TestAccount, method: 'PUT' | 'DELETE' = 'PUT') =>
  call(api, method, `/api/feed/${postId}/save`, { as });
const savedIds = async (as: TestAccount) =>
  (await everyPage<{ _id: string }>(api, '/api/users/me/saved-posts', 50, as)).flat().map((post) => post._id);

describe('a block protects both riders', () => {
  it("hides the blocker's posts from the blocked rider too: the feed, the following feed, one post and saved posts", async () => {
    const [blocker, blocked, bystander] = [await register(api), await register(api), await register(api)];
    const blockersPost = await newPost(api, blocker);
    expect((await saveOf(blockersPost._id, blocked)).status).toBe(200);
    expect((await block(blocked._id, blocker)).status).toBe(200);

    expect(await feedIds(blocked)).not.toContain(blockersPost._id);
    expect((await call(api, 'GET', `/api/feed/${blockersPost._id}`, { as: blocked })).status).toBe(404);
    expect((await call(api, 'GET', `/api/feed/${blockersPost._id}/comments`, { as: blocked })).status).toBe(404);
    expect(await savedIds(blocked)).toEqual([]);
    const following = await everyPage<{ _id: string }>(api, '/api/feed?scope=following', 50, blocked);
    expect(following.flat().map((post) => post._id)).not.toContain(blockersPost._id);
    expect(await feedIds(bystander)).toContain(blockersPost._id);

    expect((await unblock(blocked._id, blocker)).status).toBe(200);
    expect((await call(api, 'GET', `/api/feed/${blockersPost._id}`, { as: blocked })).status).toBe(200);
    expect(await savedIds(blocked)).toEqual([blockersPost._id]);
  });

  for (const direction of ['the caller blocked the author', 'the author blocked the caller'] as const) {
    it(`answers 404, as for a missing post, to a comment, reaction or save when ${direction}, storing nothing`, async () => {
      const [caller, author] = [await register(api), await register(api)];
      const post = await newPost(api, author);
      const [blocker, blocked] = direction === 'the caller blocked the author' ? [caller, author] : [author, caller];
      expect((await block(blocked._id, blocker)).status).toBe(200);
      const answers = [
        await call(api, 'POST', `/api/feed/${post._id}/comments`, { as: caller, json: { text: 'Clean!' } }),
        await reactTo(post._id, caller),
        await reactTo(post._id, caller, 'DELETE'),
        await saveOf(post._id, caller),
        await saveOf(post._id, caller, 'DELETE'),
      ];
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: 'Post not found.' });
      }
      const postId = new ObjectId(post._id);
      const stored = await api.db(async (db) => ({
        comments: await db.collection('feed_comments').countDocuments({ postId }),
        reactions: await db.collection('reactions').countDocuments({ postId }),
        saves: await db.collection('saved_posts').countDocuments({ postId }),
        counts: (await db.collection('feed_posts').findOne({ _id: postId }))?.counts,
      }));
      expect(stored).toEqual({ comments: 0, reactions: 0, saves: 0, counts: { love: 0, respect: 0, comments: 0 } });
    });
  }

  it("takes the blocked rider's comments off the blocker's posts for every reader, and keeps the counts as stored", async () => {
    const [blocker, blocked, bystander] = [await register(api), await register(api), await register(api)];
    const post = await newPost(api, blocker);
    const hidden = await comment(post._id, blocked);
    const shown = await comment(post._id, bystander);
    expect((await reactTo(post._id, blocked)).status).toBe(200);
    expect((await block(blocked._id, blocker)).status).toBe(200);

    for (const reader of [blocker, bystander, undefined]) {
      expect(await commentIds(post._id, reader)).toEqual([shown]);
    }
    // The counts are the stored totals, the same for every reader; the blocker's own view shows no reaction of theirs.
    for (const reader of [blocker, bystander]) {
      const view = await readPost(api, post._id, reader);
      expect(view.counts).toEqual({ love: 1, respect: 0, comments: 2 });
      expect(view.myReaction).toBeNull();
    }
    expect((await unblock(blocked._id, blocker)).status).toBe(200);
    expect(await commentIds(post._id, bystander)).toEqual([shown, hidden]);
  });
});
