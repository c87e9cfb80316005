import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { newPost } from '../../support/feed';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Feed posts, comments and saves as older code stored them, written straight through the driver.
const api = createApi('legacy-feed');

/** Stores a post as it is given, with an id of its own unless it names one; answers its hex id. */
async function storePost(fields: Record<string, unknown>): Promise<string> {
  const _id = (fields._id as ObjectId | undefined) ?? new ObjectId();
  await api.db((db) => db.collection('feed_posts').insertOne({ ...fields, _id }));
  return _id.toHexString();
}

async function storeComment(fields: Record<string, unknown>): Promise<string> {
  const _id = new ObjectId();
  await api.db((db) => db.collection('feed_comments').insertOne({ ...fields, _id }));
  return _id.toHexString();
}

/** A rider whose feed holds only what a test stores: each test reads the following feed of its own rider. */
async function followingFeed(rider: TestAccount, limit = 20) {
  const pages = await everyPage<any>(api, '/api/feed?scope=following', limit, rider);
  return pages.flat();
}

describe('feed posts as older code stored them', () => {
  it('reads a post with string counts, a string date, a link stored as a string and unknown fields', async () => {
    const rider = await register(api, { name: 'Old Timer' });
    const postId = await storePost({
      userId: new ObjectId(rider._id),
      text: 'first clip',
      media: 'https://clips.example/1.mp4',
      counts: { love: '12', respect: null, comments: '3' },
      createdAt: '2019-05-04T10:00:00.000Z',
      __v: 0,
    });
    const res = await call(api, 'GET', `/api/feed/${postId}`);
    expect(res.status).toBe(200);
    expect(await res.json<any>()).toMatchObject({
      _id: postId,
      author: { _id: rider._id, name: 'Old Timer' },
      text: 'first clip',
      media: [{ type: 'image', url: 'https://clips.example/1.mp4' }],
      counts: { love: 12, respect: 0, comments: 3 },
      createdAt: '2019-05-04T10:00:00.000Z',
    });
  });

  it('shows a post whose author is missing, names no one, or is stored as a hex string', async () => {
    const rider = await register(api, { name: 'Hex Owner' });
    const missing = await storePost({ text: 'no author', media: [], counts: {} });
    const nobody = await storePost({ userId: new ObjectId(), text: 'gone', media: [] });
    const hex = await storePost({ userId: rider._id, text: 'hex author', media: [] });
    const read = async (id: string) => (await call(api, 'GET', `/api/feed/${id}`)).json<any>();
    expect((await read(missing)).author).toBeNull();
    expect((await read(nobody)).author).toBeNull();
    expect((await read(hex)).author).toMatchObject({ _id: rider._id, name: 'Hex Owner' });
    const feed = (await (await call(api, 'GET', '/api/feed?limit=50')).json<any>()).items.map((p: any) => p._id);
    expect(feed).toEqual(expect.arrayContaining([missing, nobody, hex]));
  });

  it('leaves out a post with nothing to show, with an event line, and pages on past it', async () => {
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    const first = await storePost({ userId, text: 'oldest', media: [], createdAt: new Date() });
    const broken = await storePost({ userId, text: { $old: 'shape' }, media: 42, createdAt: new Date() });
    const last = await storePost({ userId, text: 'newest', media: [], createdAt: new Date() });
    let feed: any[] = [];
    const lines = await captureLogLines(async () => {
      feed = await followingFeed(rider, 1);
    });
    expect(feed.map((post) => post._id)).toEqual([last, first]);
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'feed_posts', id: broken }),
    ]);
  });

  it("lets the author delete a post whose userId is stored as a hex string, and nobody else's", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const postId = await storePost({ userId: owner._id, text: 'mine', media: [] });
    expect((await call(api, 'DELETE', `/api/feed/${postId}`, { as: other })).status).toBe(403);
    expect((await call(api, 'DELETE', `/api/feed/${postId}`, { as: owner })).status).toBe(200);
  });

  it('counts a reaction and a comment on a post whose counts are stored as strings or missing', async () => {
    const rider = await register(api);
    const stringCounts = await storePost({ userId: new ObjectId(), text: 'old', counts: { love: '12' } });
    const noCounts = await storePost({ userId: new ObjectId(), text: 'older' });
    const react = (id: string) => call(api, 'PUT', `/api/feed/${id}/reactions`, { as: rider, json: { type: 'love' } });
    expect(await (await react(stringCounts)).json<any>()).toMatchObject({ counts: { love: 13, respect: 0 } });
    expect(await (await react(noCounts)).json<any>()).toMatchObject({ counts: { love: 1, respect: 0 } });
    const comment = await call(api, 'POST', `/api/feed/${stringCounts}/comments`, { as: rider, json: { text: 'yo' } });
    expect(comment.status).toBe(201);
    expect((await (await call(api, 'GET', `/api/feed/${stringCounts}`)).json<any>()).counts).toEqual({
      love: 13,
      respect: 0,
      comments: 1,
    });
  });
});

describe('reactions and saves older code stored with hex-string ids', () => {
  it("are the rider's one reaction and save: replaced, taken back, and gone with their post", async () => {
    const [rider, author] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const postId = new ObjectId(post._id);
    await api.db(async (db) => {
      await db
        .collection('reactions')
        .insertOne({ _id: new ObjectId(), postId: post._id, userId: rider._id, type: 'love' });
      await db.collection('saved_posts').insertOne({ _id: new ObjectId(), postId: post._id, userId: rider._id });
      await db
        .collection('feed_comments')
        .insertOne({ _id: new ObjectId(), postId: post._id, userId: rider._id, text: 'hi' });
      await db
        .collection('feed_posts')
        .updateOne({ _id: postId }, { $set: { counts: { love: 1, respect: 0, comments: 1 } } });
    });
    const seen = await (await call(api, 'GET', `/api/feed/${post._id}`, { as: rider })).json<any>();
    expect(seen).toMatchObject({ myReaction: 'love', saved: true });

    const replaced = await call(api, 'PUT', `/api/feed/${post._id}/reactions`, {
      as: rider,
      json: { type: 'respect' },
    });
    expect((await replaced.json<any>()).counts).toEqual({ love: 0, respect: 1, comments: 1 });
    const count = (name: string) =>
      api.db((db) => db.collection(name).countDocuments({ postId: { $in: [postId, post._id] } }));
    expect(await count('reactions')).toBe(1);
    expect((await call(api, 'DELETE', `/api/feed/${post._id}/save`, { as: rider })).status).toBe(200);
    expect(await count('saved_posts')).toBe(0);

    await api.db((db) =>
      db.collection('saved_posts').insertOne({ _id: new ObjectId(), postId: post._id, userId: rider._id }),
    );
    expect((await call(api, 'DELETE', `/api/feed/${post._id}`, { as: author })).status).toBe(200);
    expect([await count('reactions'), await count('saved_posts'), await count('feed_comments')]).toEqual([0, 0, 0]);
  });
});

describe('comments as older code stored them', () => {
  it('lists readable comments, leaves out one without text, and pages on past it', async () => {
    const rider = await register(api, { name: 'Commenter' });
    const post = await newPost(api, rider);
    const postId = new ObjectId(post._id);
    const oldest = await storeComment({ postId, userId: rider._id, text: 'hex author', createdAt: 1557000000000 });
    const broken = await storeComment({ postId, userId: new ObjectId(rider._id), text: null });
    const orphan = await storeComment({ postId: post._id, text: 'no author', createdAt: 'not a date' });
    let pages: any[][] = [];
    const lines = await captureLogLines(async () => {
      pages = await everyPage<any>(api, `/api/feed/${post._id}/comments`, 1);
    });
    const comments = pages.flat();
    expect(comments.map((comment) => comment._id)).toEqual([orphan, oldest]);
    expect(comments[0]).toMatchObject({ postId: post._id, author: null, text: 'no author' });
    expect(comments[1]).toMatchObject({
      author: { _id: rider._id, name: 'Commenter' },
      createdAt: new Date(1557000000000).toISOString(),
    });
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'feed_comments', id: broken }),
    ]);
  });

  it('lets the author delete their comment stored with a hex-string userId', async () => {
    const [author, commenter] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const commentId = await storeComment({ postId: new ObjectId(post._id), userId: commenter._id, text: 'old' });
    const res = await call(api, 'DELETE', `/api/feed/${post._id}/comments/${commentId}`, { as: commenter });
    expect(res.status).toBe(200);
  });
});

describe('saved posts as older code stored them', () => {
  it("lists a rider's saves stored with hex-string ids, over posts in older shapes, leaving out one naming no post", async () => {
    const rider = await register(api);
    const post = await storePost({ userId: new ObjectId(), text: 'saved long ago', counts: 'none' });
    await api.db((db) =>
      db.collection('saved_posts').insertOne({ _id: new ObjectId(), userId: rider._id, postId: post }),
    );
    const broken = new ObjectId();
    await api.db((db) =>
      db.collection('saved_posts').insertOne({ _id: broken, userId: new ObjectId(rider._id), postId: 'gone' }),
    );
    let res: Response | undefined;
    const lines = await captureLogLines(async () => {
      res = await call(api, 'GET', '/api/users/me/saved-posts', { as: rider });
    });
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'saved_posts', id: broken.toHexString() }),
    ]);
    expect(res!.status).toBe(200);
    expect((await res!.json<any>()).items).toEqual([
      expect.objectContaining({ _id: post, saved: true, counts: { love: 0, respect: 0, comments: 0 } }),
    ]);
  });
});
