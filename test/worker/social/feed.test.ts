import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin } from '../../support/accounts';
import { call, everyPage, refusedFields } from '../../support/content';
import { newPost, newSpot, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('feed');
const image = { type: 'image', url: 'https://cdn.example.com/a.jpg' };

describeAccessChecks(api, [
  { method: 'POST', path: '/api/feed', check: 'auth', json: { text: 'Posted by the access table' } },
  { method: 'DELETE', path: '/api/feed/:postId', check: 'auth' },
]);

describe('feed posts', () => {
  it('creates a post with text, media and a spot, showing its author as a public user and zero counts', async () => {
    const [rider, spotId] = [await register(api, { name: 'Ana' }), await newSpot(api)];
    const media = [image, { type: 'video', url: 'http://cdn.example.com/b.mp4' }];
    const post = await newPost(api, rider, { text: '  First line  ', media, spotId });
    expect(post).toMatchObject({
      author: { _id: rider._id, name: 'Ana' },
      text: 'First line',
      media,
      spotId,
      counts: { love: 0, respect: 0, comments: 0 },
      myReaction: null,
      saved: false,
    });
    expect(post.author).not.toHaveProperty('email');
    expect(await readPost(api, post._id)).toEqual({
      _id: post._id,
      author: post.author,
      text: 'First line',
      media,
      spotId,
      counts: post.counts,
      createdAt: post.createdAt,
    });
  });

  it('accepts a post with media and no text, and one with text and no media', async () => {
    const rider = await register(api);
    expect(await newPost(api, rider, { media: [image] })).not.toHaveProperty('text');
    expect((await newPost(api, rider, { text: 'Just words' })).media).toEqual([]);
  });

  it.each([
    [{}, 'text'],
    [{ media: [] }, 'text'],
    [{ text: '   ', media: [] }, 'text'],
    [{ text: 'x'.repeat(LIMITS.feed.textMax + 1) }, 'text'],
    [{ media: Array(LIMITS.feed.mediaMax + 1).fill(image) }, 'media'],
    [{ media: [{ type: 'audio', url: 'https://cdn.example.com/a.mp3' }] }, 'media.0.type'],
    [{ media: [{ type: 'image', url: 'javascript:alert(1)' }] }, 'media.0.url'],
    [{ media: [{ type: 'image', url: 'ftp://cdn.example.com/a.jpg' }] }, 'media.0.url'],
    [{ media: [{ type: 'image' }] }, 'media.0.url'],
    [{ text: 'hi', spotId: 'nope' }, 'spotId'],
    [{ text: 'hi', userId: new ObjectId().toHexString() }, 'request body'],
  ])('refuses %j with 400 naming %s', async (json, field) => {
    const rider = await register(api);
    const res = await call(api, 'POST', '/api/feed', { as: rider, json });
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toContain(field);
  });

  it('accepts exactly the most media items allowed', async () => {
    const rider = await register(api);
    expect((await newPost(api, rider, { media: Array(LIMITS.feed.mediaMax).fill(image) })).media).toHaveLength(10);
  });

  it('refuses a post at a spot that does not exist with 400 naming spotId, and stores nothing', async () => {
    const rider = await register(api);
    const res = await call(api, 'POST', '/api/feed', {
      as: rider,
      json: { text: 'hi', spotId: new ObjectId().toHexString() },
    });
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toEqual(['spotId']);
    expect(await api.db((db) => db.collection('feed_posts').countDocuments({ userId: new ObjectId(rider._id) }))).toBe(
      0,
    );
  });

  it('lists the feed newest first across pages, without repeats', async () => {
    const rider = await register(api);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newPost(api, rider, { text: `post ${i}` }))._id);
    const pages = await everyPage<{ _id: string }>(api, '/api/feed', 2);
    const seen = pages.flat().map((post) => post._id);
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('shows a signed-in reader their own reaction and saved state, and no token the public view', async () => {
    const [author, reader] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    expect(
      (await call(api, 'PUT', `/api/feed/${post._id}/reactions`, { as: reader, json: { type: 'respect' } })).status,
    ).toBe(200);
    expect((await call(api, 'PUT', `/api/feed/${post._id}/save`, { as: reader })).status).toBe(200);

    expect(await readPost(api, post._id, reader)).toMatchObject({ myReaction: 'respect', saved: true });
    expect(await readPost(api, post._id, author)).toMatchObject({ myReaction: null, saved: false });
    const listed = (await (await call(api, 'GET', '/api/feed?limit=100', { as: reader })).json<any>()).items;
    expect(listed.find((item: { _id: string }) => item._id === post._id)).toMatchObject({
      myReaction: 'respect',
      saved: true,
    });

    const publicView = await readPost(api, post._id);
    expect(publicView).not.toHaveProperty('myReaction');
    expect(publicView).not.toHaveProperty('saved');
  });

  it('answers 404 for an unknown post and 400 for a malformed post id', async () => {
    expect((await api.fetch(`/api/feed/${new ObjectId().toHexString()}`)).status).toBe(404);
    expect((await api.fetch('/api/feed/nope')).status).toBe(400);
  });

  it('lets the author delete a post, taking its comments, reactions and saves with it', async () => {
    const [author, other] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    await call(api, 'PUT', `/api/feed/${post._id}/reactions`, { as: other, json: { type: 'love' } });
    await call(api, 'PUT', `/api/feed/${post._id}/save`, { as: other });
    await call(api, 'POST', `/api/feed/${post._id}/comments`, { as: other, json: { text: 'Nice' } });

    const res = await call(api, 'DELETE', `/api/feed/${post._id}`, { as: author });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, postId: post._id });
    expect((await api.fetch(`/api/feed/${post._id}`)).status).toBe(404);
    const postId = new ObjectId(post._id);
    const left = await api.db((db) =>
      Promise.all(
        ['reactions', 'feed_comments', 'saved_posts'].map((name) => db.collection(name).countDocuments({ postId })),
      ),
    );
    expect(left).toEqual([0, 0, 0]);
    expect((await call(api, 'DELETE', `/api/feed/${post._id}`, { as: author })).status).toBe(404);
  });

  it("refuses another rider's delete with 403 JSON and keeps the post; an admin may delete it", async () => {
    const [author, other, admin] = [await register(api), await register(api), await registerAdmin(api)];
    const post = await newPost(api, author);
    const refused = await call(api, 'DELETE', `/api/feed/${post._id}`, { as: other });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'You can delete only your own posts.' });
    expect((await api.fetch(`/api/feed/${post._id}`)).status).toBe(200);
    expect((await call(api, 'DELETE', `/api/feed/${post._id}`, { as: admin })).status).toBe(200);
    expect((await api.fetch(`/api/feed/${post._id}`)).status).toBe(404);
  });
});
