import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, everyPage, refusedFields } from '../../support/content';
import { newPost, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('comments');

async function comment(postId: string, as: TestAccount, text = 'Clean landing') {
  const res = await call(api, 'POST', `/api/feed/${postId}/comments`, { as, json: { text } });
  if (res.status !== 201) throw new Error(`comment not created: ${res.status} ${await res.text()}`);
  return res.json<any>();
}
const removeComment = (postId: string, commentId: string, as: TestAccount) =>
  call(api, 'DELETE', `/api/feed/${postId}/comments/${commentId}`, { as });

describeAccessChecks(api, [
  { method: 'POST', path: '/api/feed/:postId/comments', check: 'auth', json: { text: 'By the access table' } },
  { method: 'DELETE', path: '/api/feed/:postId/comments/:commentId', check: 'auth' },
]);

describe('comments', () => {
  it('adds a comment showing its author as a public user, counts it, and lists it publicly', async () => {
    const [author, rider] = [await register(api), await register(api, { name: 'Kai' })];
    const post = await newPost(api, author);
    const created = await comment(post._id, rider, '  Sick  ');
    expect(created).toMatchObject({ postId: post._id, text: 'Sick', author: { _id: rider._id, name: 'Kai' } });
    expect(created.author).not.toHaveProperty('email');
    expect((await readPost(api, post._id)).counts.comments).toBe(1);
    const listed = await (await api.fetch(`/api/feed/${post._id}/comments`)).json<any>();
    expect(listed).toEqual({ items: [created], nextCursor: null });
  });

  it('lists comments newest first across pages', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await comment(post._id, rider, `c${i}`))._id);
    const pages = await everyPage<{ _id: string }>(api, `/api/feed/${post._id}/comments`, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((c) => c._id)).toEqual([...ids].reverse());
  });

  it.each([
    [{}, 'text'],
    [{ text: '   ' }, 'text'],
    [{ text: 'x'.repeat(LIMITS.feed.commentMax + 1) }, 'text'],
    [{ text: 'ok', postId: new ObjectId().toHexString() }, 'request body'],
  ])('refuses %j with 400 naming %s', async (json, field) => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const res = await call(api, 'POST', `/api/feed/${post._id}/comments`, { as: rider, json });
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toContain(field);
    expect((await readPost(api, post._id)).counts.comments).toBe(0);
  });

  it('answers 404 for comments on an unknown post, storing nothing', async () => {
    const rider = await register(api);
    const postId = new ObjectId().toHexString();
    expect((await api.fetch(`/api/feed/${postId}/comments`)).status).toBe(404);
    const res = await call(api, 'POST', `/api/feed/${postId}/comments`, { as: rider, json: { text: 'hi' } });
    expect(res.status).toBe(404);
    expect(await api.db((db) => db.collection('feed_comments').countDocuments({ postId: new ObjectId(postId) }))).toBe(
      0,
    );
    expect((await removeComment(postId, new ObjectId().toHexString(), rider)).status).toBe(404);
  });

  it("lets the comment's author, the post's author and an admin delete a comment, each taking it off the count", async () => {
    const [author, rider, admin] = [await register(api), await register(api), await registerAdmin(api)];
    const post = await newPost(api, author);
    const [a, b, c] = [await comment(post._id, rider), await comment(post._id, rider), await comment(post._id, rider)];
    expect((await readPost(api, post._id)).counts.comments).toBe(3);
    for (const [target, as] of [
      [a, rider],
      [b, author],
      [c, admin],
    ] as const) {
      const res = await removeComment(post._id, target._id, as);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ deleted: true, commentId: target._id });
    }
    expect((await readPost(api, post._id)).counts.comments).toBe(0);
    expect((await removeComment(post._id, a._id, rider)).status).toBe(404);
  });

  it("refuses anyone else's delete with 403 and keeps the comment and the count", async () => {
    const [author, rider, stranger] = [await register(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    const created = await comment(post._id, rider);
    const res = await removeComment(post._id, created._id, stranger);
    expect(res.status).toBe(403);
    expect((await res.json<any>()).error).toMatch(/only your own comments/);
    expect((await readPost(api, post._id)).counts.comments).toBe(1);
  });

  it('answers 404 for a comment id of another post', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const [one, two] = [await newPost(api, author), await newPost(api, author)];
    const created = await comment(one._id, rider);
    expect((await removeComment(two._id, created._id, author)).status).toBe(404);
    expect((await readPost(api, one._id)).counts.comments).toBe(1);
  });

  it('keeps the comment count exact under 15 parallel comments and 5 parallel deletes', async () => {
    const author = await register(api);
    const post = await newPost(api, author);
    const riders = await Promise.all(Array.from({ length: 15 }, () => register(api)));
    const made = await Promise.all(riders.map((rider) => comment(post._id, rider)));
    expect((await readPost(api, post._id)).counts.comments).toBe(15);
    const results = await Promise.all(made.slice(0, 5).map((c) => removeComment(post._id, c._id, author)));
    expect(results.map((res) => res.status)).toEqual(Array(5).fill(200));
    expect((await readPost(api, post._id)).counts.comments).toBe(10);
  });

  it('takes a comment off the count once when it is deleted 5 times at once', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    await comment(post._id, rider);
    const doomed = await comment(post._id, rider);
    const results = await Promise.all(Array.from({ length: 5 }, () => removeComment(post._id, doomed._id, rider)));
    expect(results.map((res) => res.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect((await readPost(api, post._id)).counts.comments).toBe(1);
  });
});
