import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { recordModeratorAction } from '../../../worker/moderation/action-log/service';
import { createStore } from '../../../worker/platform/db/store';
import { register, registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('moderator-action-log');

const record = (entry: Parameters<typeof recordModeratorAction>[1]) =>
  api.db((db) =>
    recordModeratorAction(
      createStore(() => db),
      entry,
    ),
  );

const page = async (token: string, query = '') => {
  const res = await api.fetch(`/api/admin/moderation/actions${query}`, { headers: { 'x-auth-token': token } });
  return {
    status: res.status,
    body: await res.json<{ items: Record<string, unknown>[]; nextCursor: string | null }>(),
  };
};

describe('GET /api/admin/moderation/actions', () => {
  it('lists who did what to whom, when and why, newest first, paged', async () => {
    const moderator = await registerAdmin(api);
    const rider = await register(api);
    const actorId = new ObjectId(moderator._id);
    const subjectId = new ObjectId(rider._id);
    const postId = new ObjectId();
    await record({
      actorId,
      action: 'content.remove',
      target: { type: 'post', id: postId },
      subjectId,
      reason: 'hate',
    });
    await record({
      actorId,
      action: 'rider.suspend',
      target: { type: 'user', id: subjectId },
      subjectId,
      reason: 'repeated harassment',
      details: { until: '2026-12-31T00:00:00.000Z' },
    });
    await record({ actorId, action: 'term.add', target: { type: 'term', text: 'badword' }, reason: 'new slur' });

    const first = await page(moderator.token, `?subjectId=${rider._id}&limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([
      {
        _id: expect.any(String),
        actorId: moderator._id,
        action: 'rider.suspend',
        target: { type: 'user', id: rider._id },
        subjectId: rider._id,
        reason: 'repeated harassment',
        details: { until: '2026-12-31T00:00:00.000Z' },
        createdAt: expect.any(String),
      },
    ]);
    const second = await page(moderator.token, `?subjectId=${rider._id}&limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((item) => item.action)).toEqual(['content.remove']);
    expect(second.body.nextCursor).toBeNull();

    const terms = await page(moderator.token, '?action=term.add');
    expect(terms.body.items).toMatchObject([{ target: { type: 'term', text: 'badword' }, subjectId: null }]);
  });

  it('is for admins only, and refuses a filter it does not know', async () => {
    const rider = await register(api);
    const refused = await api.fetch('/api/admin/moderation/actions', { headers: { 'x-auth-token': rider.token } });
    expect([refused.status, await refused.text()]).toEqual([403, 'Access denied. Admin only.']);
    const moderator = await registerAdmin(api);
    const res = await api.fetch('/api/admin/moderation/actions?action=delete-everything', {
      headers: { 'x-auth-token': moderator.token },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('action');
  });

  it('leaves out an entry stored in a shape it cannot read, and pages on', async () => {
    const moderator = await registerAdmin(api);
    const subjectId = new ObjectId();
    await record({
      actorId: new ObjectId(moderator._id),
      action: 'report.dismiss',
      target: { type: 'report' },
      subjectId,
      reason: 'fine',
    });
    await api.db((db) => db.collection('moderator_actions').insertOne({ subjectId, action: 42, target: 'post' }));
    const res = await page(moderator.token, `?subjectId=${subjectId.toHexString()}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((item) => item.action)).toEqual(['report.dismiss']);
  });
});
