import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, everyPage, refusedFields } from '../../support/content';
import { newPost, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('reports');

type Report = { _id: string; status: string; reporterId: string | null; [field: string]: unknown };
const report = (as: TestAccount, json: Record<string, unknown>) => call(api, 'POST', '/api/reports', { as, json });
const resolve = (id: string, action: string, as: TestAccount) =>
  call(api, 'PATCH', `/api/admin/reports/${id}`, { as, json: { action } });
const filed = async (as: TestAccount, json: Record<string, unknown>): Promise<Report> => {
  const res = await report(as, json);
  expect(res.status).toBe(201);
  return res.json<Report>();
};
const storedReports = (targetId: string) =>
  api.db((db) => db.collection('reports').countDocuments({ targetId: new ObjectId(targetId) }));
const comment = async (postId: string, as: TestAccount) => {
  const res = await call(api, 'POST', `/api/feed/${postId}/comments`, { as, json: { text: 'Sketchy landing' } });
  expect(res.status).toBe(201);
  return (await res.json<{ _id: string }>())._id;
};

describeAccessChecks(api, [
  {
    method: 'POST',
    path: '/api/reports',
    check: 'auth',
    json: { targetType: 'user', targetId: new ObjectId().toHexString(), reason: 'spam' },
  },
  { method: 'GET', path: '/api/admin/reports', check: 'admin' },
  { method: 'PATCH', path: '/api/admin/reports/:id', check: 'admin', json: { action: 'dismiss' } },
]);

describe('filing reports', () => {
  it('reports a post, and a repeat while it is open answers 200 with the same report', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const first = await filed(rider, { targetType: 'post', targetId: post._id, reason: 'spam', note: ' bot ' });
    expect(first).toMatchObject({
      reporterId: rider._id,
      targetType: 'post',
      targetId: post._id,
      reason: 'spam',
      note: 'bot',
      status: 'open',
    });
    const again = await report(rider, { targetType: 'post', targetId: post._id, reason: 'hate' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);
    expect(await storedReports(post._id)).toBe(1);
  });

  it('stores one open report when the same rider reports the same target 10 times at once', async () => {
    const [target, rider] = [await register(api), await register(api)];
    const json = { targetType: 'user', targetId: target._id, reason: 'harassment' };
    const results = await Promise.all(Array.from({ length: 10 }, () => report(rider, json)));
    expect(results.map((res) => res.status).sort()).toEqual([...Array(9).fill(200), 201]);
    expect(await storedReports(target._id)).toBe(1);
  });

  it('keeps reports by different riders on the same target apart', async () => {
    const [author, one, two] = [await register(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    await filed(one, { targetType: 'post', targetId: post._id, reason: 'nudity' });
    await filed(two, { targetType: 'post', targetId: post._id, reason: 'nudity' });
    expect(await storedReports(post._id)).toBe(2);
  });

  it('reports a comment, recording the post it sits on', async () => {
    const [author, rider] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const commentId = await comment(post._id, author);
    const made = await filed(rider, { targetType: 'comment', targetId: commentId, reason: 'violence' });
    expect(made).toMatchObject({ targetType: 'comment', targetId: commentId, postId: post._id });
  });

  it('answers 404 for a target that does not exist, for each target type', async () => {
    const rider = await register(api);
    for (const targetType of ['post', 'comment', 'user']) {
      const targetId = new ObjectId().toHexString();
      const res = await report(rider, { targetType, targetId, reason: 'other' });
      expect(res.status).toBe(404);
      expect(await storedReports(targetId)).toBe(0);
    }
  });

  it('refuses a bad target type, reason, id or an overlong note with a 400 naming each field', async () => {
    const rider = await register(api);
    const res = await report(rider, { targetType: 'spot', targetId: 'x', reason: 'rude', note: 'n'.repeat(1001) });
    expect(res.status).toBe(400);
    expect((await refusedFields(res)).sort()).toEqual(['note', 'reason', 'targetId', 'targetType']);
    const extra = await report(rider, { targetType: 'user', targetId: rider._id, reason: 'spam', status: 'resolved' });
    expect(extra.status).toBe(400);
  });
});

describe('the admin desk', () => {
  it('lists open and resolved reports apart, newest first across pages', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const targets = [await register(api), await register(api), await register(api)];
    const made: Report[] = [];
    for (const target of targets)
      made.push(await filed(rider, { targetType: 'user', targetId: target._id, reason: 'spam' }));
    expect((await resolve(made[1]!._id, 'dismiss', admin)).status).toBe(200);
    const open = (await everyPage<Report>(api, '/api/admin/reports?status=open', 1, admin)).flat().map((r) => r._id);
    const resolved = (await everyPage<Report>(api, '/api/admin/reports?status=resolved', 1, admin)).flat();
    expect(open).toContain(made[0]!._id);
    expect(open.indexOf(made[2]!._id)).toBeLessThan(open.indexOf(made[0]!._id));
    expect(open).not.toContain(made[1]!._id);
    expect(resolved.map((r) => r._id)).toContain(made[1]!._id);
    const bad = await call(api, 'GET', '/api/admin/reports?status=closed', { as: admin });
    expect(bad.status).toBe(400);
    expect(await refusedFields(bad)).toEqual(['status']);
  });

  it('logs each per-report decision with its reason, or a plain one when the older client sends none', async () => {
    const [admin, author, rider] = [await registerAdmin(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    const made = await filed(rider, { targetType: 'post', targetId: post._id, reason: 'spam' });
    const res = await call(api, 'PATCH', `/api/admin/reports/${made._id}`, {
      as: admin,
      json: { action: 'remove', reason: 'Spam.' },
    });
    expect(res.status).toBe(200);
    const target = await register(api);
    const other = await filed(rider, { targetType: 'user', targetId: target._id, reason: 'spam' });
    expect((await resolve(other._id, 'dismiss', admin)).status).toBe(200);
    const logged = async (subjectId: string) => {
      const log = await call(api, 'GET', `/api/admin/moderation/actions?subjectId=${subjectId}`, { as: admin });
      return (await log.json<{ items: unknown[] }>()).items;
    };
    expect(await logged(author._id)).toEqual([
      expect.objectContaining({
        action: 'content.remove',
        actorId: admin._id,
        target: { type: 'post', id: post._id },
        reason: 'Spam.',
        details: { reportId: made._id },
      }),
    ]);
    expect(await logged(target._id)).toEqual([
      expect.objectContaining({
        action: 'report.dismiss',
        target: { type: 'user', id: target._id },
        reason: 'Report dismissed.',
      }),
    ]);
  });

  it('removes a reported post with its comments, marks the report resolved, and refuses resolving twice', async () => {
    const [admin, author, rider] = [await registerAdmin(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    await comment(post._id, rider);
    const made = await filed(rider, { targetType: 'post', targetId: post._id, reason: 'violence' });
    const res = await resolve(made._id, 'remove', admin);
    expect(res.status).toBe(200);
    const done = await res.json<Report>();
    expect(done).toMatchObject({ status: 'resolved', action: 'remove', resolvedBy: admin._id });
    expect(Date.parse(done.resolvedAt as string)).not.toBeNaN();
    expect((await call(api, 'GET', `/api/feed/${post._id}`)).status).toBe(404);
    expect(
      await api.db((db) => db.collection('feed_comments').countDocuments({ postId: new ObjectId(post._id) })),
    ).toBe(0);
    const twice = await resolve(made._id, 'dismiss', admin);
    expect(twice.status).toBe(409);
    // A fresh report on the same rider is allowed once the first is resolved.
    const target = await register(api);
    const userReport = await filed(rider, { targetType: 'user', targetId: target._id, reason: 'spam' });
    expect((await resolve(userReport._id, 'dismiss', admin)).status).toBe(200);
    await filed(rider, { targetType: 'user', targetId: target._id, reason: 'spam' });
  });

  it('closes the other open reports about content it removes, as removed by the same admin', async () => {
    const [admin, author, first, second] = [
      await registerAdmin(api),
      await register(api),
      await register(api),
      await register(api),
    ];
    const post = await newPost(api, author);
    const one = await filed(first, { targetType: 'post', targetId: post._id, reason: 'spam' });
    await filed(second, { targetType: 'post', targetId: post._id, reason: 'violence' });
    expect((await resolve(one._id, 'remove', admin)).status).toBe(200);
    const rows = await api.db((db) =>
      db
        .collection('reports')
        .find({ targetId: new ObjectId(post._id) })
        .toArray(),
    );
    expect(rows.map((row) => [row.status, row.action, String(row.resolvedBy)])).toEqual([
      ['resolved', 'remove', admin._id],
      ['resolved', 'remove', admin._id],
    ]);
  });

  it("removes a reported comment and takes it off the post's count", async () => {
    const [admin, author, rider] = [await registerAdmin(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    const commentId = await comment(post._id, rider);
    await comment(post._id, author);
    const made = await filed(author, { targetType: 'comment', targetId: commentId, reason: 'harassment' });
    expect((await resolve(made._id, 'remove', admin)).status).toBe(200);
    expect((await readPost(api, post._id)).counts.comments).toBe(1);
    expect(await api.db((db) => db.collection('feed_comments').countDocuments({ _id: new ObjectId(commentId) }))).toBe(
      0,
    );
  });

  it('never deletes a reported rider, and a dismissed report leaves the content', async () => {
    const [admin, target, rider] = [await registerAdmin(api), await register(api), await register(api)];
    const userReport = await filed(rider, { targetType: 'user', targetId: target._id, reason: 'hate' });
    const refused = await resolve(userReport._id, 'remove', admin);
    expect(refused.status).toBe(400);
    expect((await refused.json<{ error: string }>()).error).toMatch(/^action: /);
    expect(await api.db((db) => db.collection('users').countDocuments({ _id: new ObjectId(target._id) }))).toBe(1);
    // The refused report is still open, to be dismissed.
    expect((await resolve(userReport._id, 'dismiss', admin)).status).toBe(200);
    const post = await newPost(api, target);
    const postReport = await filed(rider, { targetType: 'post', targetId: post._id, reason: 'spam' });
    const res = await resolve(postReport._id, 'dismiss', admin);
    expect(await res.json()).toMatchObject({ status: 'resolved', action: 'dismiss' });
    expect((await call(api, 'GET', `/api/feed/${post._id}`)).status).toBe(200);
  });

  it('answers 404 for an unknown report and 400 for an unknown action', async () => {
    const [admin, target, rider] = [await registerAdmin(api), await register(api), await register(api)];
    expect((await resolve(new ObjectId().toHexString(), 'dismiss', admin)).status).toBe(404);
    const made = await filed(rider, { targetType: 'user', targetId: target._id, reason: 'spam' });
    const bad = await resolve(made._id, 'ban', admin);
    expect(bad.status).toBe(400);
    expect(await refusedFields(bad)).toEqual(['action']);
  });

  it("keeps a deleted reporter's reports without their id, and drops reports about a deleted rider", async () => {
    const [author, reporter, reported] = [await register(api), await register(api), await register(api)];
    const post = await newPost(api, author);
    const kept = await filed(reporter, { targetType: 'post', targetId: post._id, reason: 'spam' });
    await filed(author, { targetType: 'user', targetId: reported._id, reason: 'spam' });
    for (const account of [reporter, reported]) {
      const res = await api.fetch(`/api/users/${account._id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.token}` },
      });
      expect(res.status).toBe(200);
    }
    const stored = await api.db((db) => db.collection('reports').findOne({ _id: new ObjectId(kept._id) }));
    expect(stored).not.toBeNull();
    expect(stored!.reporterId).toBeUndefined();
    expect(await storedReports(reported._id)).toBe(0);
  });
});
