import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { AnalyticsEngineStandIn } from '../../support/analytics-engine-stand-in';
import { call } from '../../support/content';
import { pushTestbed } from '../../support/expo-push-stand-in';
import { newPost } from '../../support/feed';
import { captureLogLines, eventLines } from '../../support/log-lines';

// The admins' report queue (docs/moderation.md, "Reports and the queue"): open reports grouped by target, the hold
// three riders' reports put on a target, decisions on a whole item, what riders read of them, and the age check.

const metrics = new AnalyticsEngineStandIn();
const push = pushTestbed('report_queue', { METRICS: metrics });
const { api } = push;
const HOUR = 60 * 60 * 1000;

interface Item {
  targetType: string;
  targetId: string;
  reports: number;
  riders: number;
  reporterIds: string[];
  fromModel: boolean;
  categories: string[];
  reasons: Record<string, number>;
  authorId: string | null;
  withheld: { reason: string; at: string } | null;
  content: { text?: string; name?: string } | null;
}
interface Queue {
  items: Item[];
  figures: {
    openItems: number;
    agedItems: number;
    oldestOpenAt: string | null;
    oldestAgeHours: number | null;
    lastSevenDays: { decided: number; withinDay: number; share: number | null };
  };
}

const report = (as: TestAccount, targetType: string, targetId: string, reason = 'spam') =>
  call(api, 'POST', '/api/reports', { as, json: { targetType, targetId, reason } });
const riders = (count: number) => Promise.all(Array.from({ length: count }, () => register(api)));
const queue = async (admin: TestAccount): Promise<Queue> => {
  const res = await call(api, 'GET', '/api/admin/moderation/queue?limit=100', { as: admin });
  expect(res.status).toBe(200);
  return res.json<Queue>();
};
const itemOf = (q: Queue, targetId: string) => q.items.find((item) => item.targetId === targetId);
const decide = (as: TestAccount, type: string, id: string, json: unknown) =>
  call(api, 'POST', `/api/admin/moderation/queue/${type}/${id}/decision`, { as, json });
const stored = (collection: string, id: string) =>
  api.db((db) => db.collection(collection).findOne({ _id: new ObjectId(id) }));
const comment = async (postId: string, as: TestAccount) => {
  const res = await call(api, 'POST', `/api/feed/${postId}/comments`, { as, json: { text: 'Sketchy landing' } });
  expect(res.status).toBe(201);
  return (await res.json<{ _id: string }>())._id;
};
/** An open report stored directly, as older riders' reports and the moderation model's are. */
const storedReport = (fields: Record<string, unknown>) =>
  api.db((db) =>
    db.collection('reports').insertOne({
      _id: new ObjectId(),
      reason: 'other',
      status: 'open',
      createdAt: new Date(),
      updatedAt: new Date(),
      ...fields,
    }),
  );
/** Clears every open report: each test reads the queue as a whole. */
const emptyQueue = () =>
  api.db((db) => db.collection('reports').updateMany({ status: 'open' }, { $set: { status: 'resolved' } }));

describeAccessChecks(api, [
  { method: 'GET', path: '/api/admin/moderation/queue', check: 'admin' },
  {
    method: 'POST',
    path: `/api/admin/moderation/queue/post/${new ObjectId().toHexString()}/decision`,
    check: 'admin',
    json: { action: 'dismiss', reason: 'fine' },
  },
  { method: 'GET', path: '/api/reports/mine', check: 'auth' },
  { method: 'GET', path: '/api/users/me/moderation', check: 'auth' },
]);

describe('the queue groups open reports by target', () => {
  it('makes ten reports of one post one item with their count and distinct reporters; a model report adds no rider', async () => {
    await emptyQueue();
    const [author, admin] = [await register(api), await registerAdmin(api)];
    const post = await newPost(api, author, { text: 'Buy followers here' });
    const reporters = await riders(10);
    for (const [i, rider] of reporters.entries())
      expect((await report(rider, 'post', post._id, i < 7 ? 'spam' : 'harassment')).status).toBe(201);
    // The same rider again is the same open report, not an eleventh.
    expect((await report(reporters[0]!, 'post', post._id)).status).toBe(200);
    await storedReport({
      source: 'model',
      categories: ['harassment'],
      targetType: 'post',
      targetId: new ObjectId(post._id),
    });

    const q = await queue(admin);
    expect(q.items).toHaveLength(1);
    const item = q.items[0]!;
    expect(item).toMatchObject({
      targetType: 'post',
      targetId: post._id,
      reports: 11,
      riders: 10,
      fromModel: true,
      categories: ['harassment'],
      reasons: { spam: 7, harassment: 3, other: 1 },
      authorId: author._id,
      content: { text: 'Buy followers here' },
    });
    expect(item.reporterIds.sort()).toEqual(reporters.map((r) => r._id).sort());
  });

  it('puts an item the model alone reported in the queue with no rider', async () => {
    await emptyQueue();
    const [author, admin] = [await register(api), await registerAdmin(api)];
    const post = await newPost(api, author);
    await storedReport({
      source: 'model',
      categories: ['violence'],
      targetType: 'post',
      targetId: new ObjectId(post._id),
    });
    const item = itemOf(await queue(admin), post._id);
    expect(item).toMatchObject({ reports: 1, riders: 0, reporterIds: [], fromModel: true, withheld: null });
  });

  it('orders items by distinct riders, then the oldest first report first', async () => {
    await emptyQueue();
    const admin = await registerAdmin(api);
    const targets = await riders(4);
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
    const reportsOn = async (target: TestAccount, count: number, firstHoursAgo: number) => {
      for (let i = 0; i < count; i++)
        await storedReport({
          reporterId: new ObjectId(),
          targetType: 'user',
          targetId: new ObjectId(target._id),
          createdAt: ago(firstHoursAgo - i),
        });
    };
    const [few, manyNew, manyOld, model] = targets as [TestAccount, TestAccount, TestAccount, TestAccount];
    await reportsOn(few, 1, 30);
    await reportsOn(manyNew, 2, 2);
    await reportsOn(manyOld, 2, 10);
    await storedReport({ source: 'model', targetType: 'user', targetId: new ObjectId(model._id), createdAt: ago(40) });
    const order = (await queue(admin)).items.map((item) => item.targetId);
    expect(order).toEqual([manyOld._id, manyNew._id, few._id, model._id]);
  });
});

describe('three distinct riders hold a target', () => {
  it('withholds a post at the third distinct rider, not before, and the same rider twice counts once', async () => {
    const author = await register(api);
    const post = await newPost(api, author);
    const [one, two, three] = await riders(3);
    await report(one!, 'post', post._id);
    await report(two!, 'post', post._id);
    expect((await report(two!, 'post', post._id, 'hate')).status).toBe(200);
    expect((await stored('feed_posts', post._id))?.withheld).toBeUndefined();
    await report(three!, 'post', post._id);
    const withheld = (await stored('feed_posts', post._id))?.withheld;
    expect(withheld).toMatchObject({ reason: 'reports' });
    expect(withheld.at).toBeInstanceOf(Date);
  });

  it('withholds when the three riders report at once', async () => {
    const author = await register(api);
    const post = await newPost(api, author);
    const reporters = await riders(3);
    const results = await Promise.all(reporters.map((rider) => report(rider, 'post', post._id)));
    expect(results.map((res) => res.status)).toEqual(Array(3).fill(201));
    expect((await stored('feed_posts', post._id))?.withheld).toMatchObject({ reason: 'reports' });
  });

  it('withholds a comment and a rider the same way, and leaves a model hold as it is', async () => {
    const [author, target] = [await register(api), await register(api)];
    const post = await newPost(api, author);
    const commentId = await comment(post._id, author);
    const reviewed = await newPost(api, author);
    const at = new Date('2026-01-01T00:00:00Z');
    await api.db((db) =>
      db
        .collection('feed_posts')
        .updateOne({ _id: new ObjectId(reviewed._id) }, { $set: { withheld: { reason: 'review', at } } }),
    );
    for (const rider of await riders(3)) {
      await report(rider, 'comment', commentId);
      await report(rider, 'user', target._id);
      await report(rider, 'post', reviewed._id);
    }
    expect((await stored('feed_comments', commentId))?.withheld).toMatchObject({ reason: 'reports' });
    expect((await stored('users', target._id))?.withheld).toMatchObject({ reason: 'reports' });
    expect((await stored('feed_posts', reviewed._id))?.withheld).toEqual({ reason: 'review', at });
  });
});

describe('deciding an item', () => {
  it('dismisses every open report of the target at once, lifts the hold, logs it and tells the reporters', async () => {
    const [author, admin] = [await register(api), await registerAdmin(api)];
    const post = await newPost(api, author);
    const reporters = await riders(3);
    for (const rider of reporters) await report(rider, 'post', post._id);
    await storedReport({ source: 'model', targetType: 'post', targetId: new ObjectId(post._id) });

    const res = await decide(admin, 'post', post._id, { action: 'dismiss', reason: 'A trick gone wrong, not abuse.' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      targetType: 'post',
      targetId: post._id,
      action: 'dismiss',
      reports: 4,
      subjectId: author._id,
    });
    const open = await api.db((db) =>
      db.collection('reports').countDocuments({ targetId: new ObjectId(post._id), status: 'open' }),
    );
    expect(open).toBe(0);
    expect((await stored('feed_posts', post._id))?.withheld).toBeUndefined();
    expect(itemOf(await queue(admin), post._id)).toBeUndefined();

    const log = await call(api, 'GET', `/api/admin/moderation/actions?subjectId=${author._id}`, { as: admin });
    expect((await log.json<{ items: unknown[] }>()).items).toEqual([
      expect.objectContaining({
        action: 'report.dismiss',
        actorId: admin._id,
        target: { type: 'post', id: post._id },
        reason: 'A trick gone wrong, not abuse.',
        details: { reports: 4 },
      }),
    ]);
    const mine = await call(api, 'GET', '/api/reports/mine', { as: reporters[0]! });
    expect((await mine.json<{ items: unknown[] }>()).items).toEqual([
      expect.objectContaining({
        targetType: 'post',
        targetId: post._id,
        state: 'dismissed',
        decidedAt: expect.any(String),
      }),
    ]);
    // A dismissal is no decision against the author: they read nothing of it.
    const theirs = await call(api, 'GET', '/api/users/me/moderation', { as: author });
    expect((await theirs.json<{ items: unknown[] }>()).items).toEqual([]);
  });

  it('removes a post, answers every report, logs why, pushes the author and lets author and reporters read it', async () => {
    await push.script({});
    const [author, admin] = [await register(api), await registerAdmin(api)];
    const device = `ExponentPushToken[${crypto.randomUUID()}]`;
    const added = await call(api, 'POST', '/api/push-tokens', {
      as: author,
      json: { token: device, platform: 'ios', transport: 'gateway', timezone: 'UTC' },
    });
    expect(added.status).toBe(201);
    const post = await newPost(api, author, { text: 'Buy followers here' });
    const [one, two] = await riders(2);
    await report(one!, 'post', post._id);
    expect((await call(api, 'GET', '/api/reports/mine', { as: one! })).status).toBe(200);
    const before = await call(api, 'GET', '/api/reports/mine', { as: one! });
    expect((await before.json<{ items: { state: string }[] }>()).items[0]?.state).toBe('open');
    await report(two!, 'post', post._id);

    const reason = 'Spam: selling followers is not allowed.';
    const res = await decide(admin, 'post', post._id, { action: 'remove', reason });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ action: 'remove', reports: 2, subjectId: author._id });
    expect(await stored('feed_posts', post._id)).toBeNull();

    const sent = (await push.sent()).filter((message) => message.to === device);
    expect(sent).toEqual([
      expect.objectContaining({
        title: 'Your post was removed',
        body: reason,
        data: expect.objectContaining({ url: '/moderation', category: 'messages' }),
      }),
    ]);
    const theirs = await call(api, 'GET', '/api/users/me/moderation', { as: author });
    expect((await theirs.json<{ items: unknown[] }>()).items).toEqual([
      {
        _id: expect.any(String),
        action: 'content.remove',
        target: { type: 'post', id: post._id },
        reason,
        createdAt: expect.any(String),
      },
    ]);
    for (const rider of [one!, two!]) {
      const mine = await call(api, 'GET', '/api/reports/mine', { as: rider });
      expect((await mine.json<{ items: { state: string }[] }>()).items.map((r) => r.state)).toEqual(['removed']);
    }
    const log = await call(api, 'GET', `/api/admin/moderation/actions?subjectId=${author._id}&action=content.remove`, {
      as: admin,
    });
    expect((await log.json<{ items: unknown[] }>()).items).toEqual([
      expect.objectContaining({ reason, target: { type: 'post', id: post._id }, details: { reports: 2 } }),
    ]);
  });

  it('removes a reported comment through the comments service', async () => {
    const [author, admin, rider] = [await register(api), await registerAdmin(api), await register(api)];
    const post = await newPost(api, author);
    const commentId = await comment(post._id, author);
    await report(rider, 'comment', commentId);
    const res = await decide(admin, 'comment', commentId, { action: 'remove', reason: 'Harassment.' });
    expect(res.status).toBe(200);
    expect(await stored('feed_comments', commentId)).toBeNull();
    expect((await stored('feed_posts', post._id))?.counts.comments).toBe(0);
  });

  it('answers the second of two admins deciding at once 409, so the item is decided and logged once', async () => {
    const [author, admin, other] = [await register(api), await registerAdmin(api), await registerAdmin(api)];
    const post = await newPost(api, author);
    for (const rider of await riders(2)) await report(rider, 'post', post._id);
    const answers = await Promise.all([
      decide(admin, 'post', post._id, { action: 'dismiss', reason: 'fine' }),
      decide(other, 'post', post._id, { action: 'remove', reason: 'not fine' }),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const logged = await api.db((db) =>
      db.collection('moderator_actions').countDocuments({ 'target.id': new ObjectId(post._id) }),
    );
    expect(logged).toBe(1);
  });

  it('refuses removing a rider, an unknown target, and a decision without a reason', async () => {
    const [target, admin, rider] = [await register(api), await registerAdmin(api), await register(api)];
    await report(rider, 'user', target._id);
    const removeRider = await decide(admin, 'user', target._id, { action: 'remove', reason: 'abuse' });
    expect(removeRider.status).toBe(400);
    expect((await removeRider.json<{ error: string }>()).error).toContain('suspend');
    const unknown = await decide(admin, 'post', new ObjectId().toHexString(), { action: 'dismiss', reason: 'x' });
    expect(unknown.status).toBe(404);
    const noReason = await decide(admin, 'user', target._id, { action: 'dismiss', reason: '  ' });
    expect(noReason.status).toBe(400);
    expect((await noReason.json<{ details: { field: string }[] }>()).details.map((d) => d.field)).toEqual(['reason']);
    const badType = await decide(admin, 'spot', target._id, { action: 'dismiss', reason: 'x' });
    expect(badType.status).toBe(400);
    expect((await stored('users', target._id))?._id).toBeDefined();
  });
});

describe('the queue answered in time', () => {
  it("shows the oldest open item's age, items past 20 hours, and the share decided within 24 hours over 7 days", async () => {
    await emptyQueue();
    await api.db((db) => db.collection('reports').deleteMany({ status: 'resolved' }));
    const admin = await registerAdmin(api);
    const now = Date.now();
    const ago = (hours: number) => new Date(now - hours * HOUR);
    const target = () => ({ targetType: 'post', targetId: new ObjectId() });
    await storedReport({ ...target(), reporterId: new ObjectId(), createdAt: ago(21) });
    await storedReport({ ...target(), reporterId: new ObjectId(), createdAt: ago(3) });
    // Older code stored a report without a date: its item reads as reported now, never as waiting.
    await storedReport({ ...target(), reporterId: new ObjectId(), createdAt: undefined });
    // Decided in the last 7 days: two within a day of their first report, one after 30 hours.
    const decided = (firstHoursAgo: number, decidedHoursAgo: number) => {
      const item = target();
      const resolvedAt = ago(decidedHoursAgo);
      return Promise.all(
        [firstHoursAgo, decidedHoursAgo + 1].map((hours) =>
          storedReport({
            ...item,
            reporterId: new ObjectId(),
            status: 'resolved',
            action: 'dismiss',
            resolvedAt,
            createdAt: ago(hours),
          }),
        ),
      );
    };
    await decided(10, 5);
    await decided(30, 28);
    await decided(60, 30);
    // Decided 8 days ago: outside the window.
    await decided(200, 192);

    const { figures } = await queue(admin);
    expect(figures).toMatchObject({ openItems: 3, agedItems: 1, lastSevenDays: { decided: 3, withinDay: 2 } });
    expect(figures.lastSevenDays.share).toBeCloseTo(2 / 3);
    expect(figures.oldestAgeHours).toBeGreaterThanOrEqual(21);
    expect(figures.oldestAgeHours).toBeLessThan(22);
  });

  it('counts items open over 20 hours in the metrics and names each in an event line on the cron run', async () => {
    await emptyQueue();
    const agedId = new ObjectId();
    await storedReport({
      targetType: 'post',
      targetId: agedId,
      reporterId: new ObjectId(),
      createdAt: new Date(Date.now() - 23 * HOUR),
    });
    await storedReport({
      targetType: 'post',
      targetId: new ObjectId(),
      reporterId: new ObjectId(),
      createdAt: new Date(),
    });
    metrics.points.length = 0;
    const lines = await captureLogLines(() => push.runCron('*/30 * * * *'));

    expect(eventLines(lines, 'moderation.queue.aged')).toEqual([
      expect.objectContaining({
        level: 'warn',
        targetType: 'post',
        targetId: agedId.toHexString(),
        riders: 1,
        ageHours: 23,
      }),
    ]);
    const points = metrics.points.filter((point) => point.blobs[0] === 'moderation.queue');
    expect(points).toHaveLength(1);
    expect(points[0]!.doubles.slice(0, 2)).toEqual([2, 1]);
    expect(points[0]!.doubles[2]).toBeCloseTo(23, 0);
    const cron = lines.map((line) => JSON.parse(line)).find((line) => line.kind === 'cron');
    expect(cron).toMatchObject({ job: 'moderation queue check', outcome: 'ok' });
  });
});
