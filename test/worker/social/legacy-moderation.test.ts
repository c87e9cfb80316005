import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, registerAdmin } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { newPost } from '../../support/feed';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Blocks and reports as older code stored them, written straight through the driver.
const api = createApi('legacy-moderation');

const storeBlock = (fields: Record<string, unknown>) =>
  api.db((db) => db.collection('user_blocks').insertOne({ _id: new ObjectId(), ...fields }));

async function storeReport(fields: Record<string, unknown>): Promise<string> {
  const _id = new ObjectId();
  await api.db((db) => db.collection('reports').insertOne({ _id, ...fields }));
  return _id.toHexString();
}

describe('blocks older code stored', () => {
  it('hide the blocked rider whether either id is stored as a hex string, and list as the blocker’s', async () => {
    const [blocker, blocked, blockedToo, blockedMe] = [
      await register(api),
      await register(api, { name: 'Blocked' }),
      await register(api, { name: 'Blocked too' }),
      await register(api),
    ];
    await storeBlock({ userId: new ObjectId(blocker._id), blockedUserId: blocked._id, createdAt: '2017-01-01' });
    await storeBlock({ userId: blocker._id, blockedUserId: new ObjectId(blockedToo._id) });
    await storeBlock({ userId: blockedMe._id, blockedUserId: blocker._id });
    const posts = [await newPost(api, blocked), await newPost(api, blockedToo), await newPost(api, blockedMe)];
    const feed = await call(api, 'GET', '/api/feed?limit=50', { as: blocker });
    expect(feed.status).toBe(200);
    const shown = (await feed.json<any>()).items.map((post: any) => post._id);
    for (const post of posts) expect(shown).not.toContain(post._id);

    const blocks = await call(api, 'GET', '/api/users/me/blocks', { as: blocker });
    expect(blocks.status).toBe(200);
    expect((await blocks.json<any>()).items.map((user: any) => user.name).sort()).toEqual(['Blocked', 'Blocked too']);
    expect((await call(api, 'DELETE', `/api/users/me/blocks/${blocked._id}`, { as: blocker })).status).toBe(200);
    const after = await (await call(api, 'GET', '/api/users/me/blocks', { as: blocker })).json<any>();
    expect(after.items.map((user: any) => user.name)).toEqual(['Blocked too']);
  });
});

describe('a block against what older code stored with hex-string ids', () => {
  it('hides a post whose author id is a hex string, and refuses a message in a conversation whose ids are', async () => {
    const [reader, author] = [await register(api), await register(api)];
    await storeBlock({ userId: new ObjectId(author._id), blockedUserId: new ObjectId(reader._id) });
    const postId = new ObjectId();
    await api.db((db) => db.collection('feed_posts').insertOne({ _id: postId, userId: author._id, text: 'hex' }));
    expect((await call(api, 'GET', `/api/feed/${postId}`, { as: reader })).status).toBe(404);

    const conversationId = new ObjectId();
    await api.db((db) =>
      db.collection('conversations').insertOne({ _id: conversationId, participantIds: [reader._id, author._id] }),
    );
    const sent = await call(api, 'POST', `/api/conversations/${conversationId}/messages`, {
      as: reader,
      json: { text: 'hi' },
    });
    expect(sent.status).toBe(403);
  });
});

describe('reports older code stored', () => {
  it('show on the desk with hex-string ids and string dates, leaving out one naming no target, and page on', async () => {
    const admin = await registerAdmin(api);
    const target = new ObjectId();
    const readable = await storeReport({
      reporterId: new ObjectId().toHexString(),
      targetType: 'user',
      targetId: target.toHexString(),
      reason: 'spam',
      status: 'open',
      createdAt: '2016-06-01T00:00:00.000Z',
    });
    const broken = await storeReport({ targetType: 'post', targetId: 'gone', reason: 'spam', status: 'open' });
    const odd = await storeReport({ targetType: 'post', targetId: new ObjectId(), reason: 'rude', status: 'open' });
    let pages: any[][] = [];
    const lines = await captureLogLines(async () => {
      pages = await everyPage<any>(api, '/api/admin/reports?status=open', 1, admin);
    });
    const reports = pages.flat();
    expect(reports.map((report) => report._id)).toEqual([odd, readable]);
    expect(reports[0]).toMatchObject({ reason: 'other', reporterId: null });
    expect(reports[1]).toMatchObject({ targetId: target.toHexString(), createdAt: '2016-06-01T00:00:00.000Z' });
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'reports', id: broken }),
    ]);
  });

  it('resolve when stored with a hex-string target, removing the post it names', async () => {
    const [admin, author] = [await registerAdmin(api), await register(api)];
    const post = await newPost(api, author);
    const reportId = await storeReport({ targetType: 'post', targetId: post._id, reason: 'spam', status: 'open' });
    const res = await call(api, 'PATCH', `/api/admin/reports/${reportId}`, { as: admin, json: { action: 'remove' } });
    expect(res.status).toBe(200);
    expect(await res.json<any>()).toMatchObject({ status: 'resolved', action: 'remove', targetId: post._id });
    expect((await call(api, 'GET', `/api/feed/${post._id}`)).status).toBe(404);
  });
});
