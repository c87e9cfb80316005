import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import worker from '../../../worker/index';
import { SCHEDULES } from '../../../worker/schedules';
import { register } from '../../support/accounts';
import { call } from '../../support/content';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { uploadPhoto } from '../../support/media';
import { phoneJpeg } from '../../support/media-fixtures';
import type { ModerationScript, RecordedModerationRequest } from '../../support/stand-ins/moderation';
import { type Api, createApi, type TestEnv } from '../../support/worker-api';

// The optional moderation model (docs/moderation.md, "Held for review") against a stand-in speaking the real
// `/v1/moderations` request and answer (test/support/stand-ins/moderation.ts), one per Worker here.

const standIns = () => (env as TestEnv).STAND_INS_URL;
const checkCron = () => SCHEDULES.find((schedule) => schedule.job === 'moderation later checks')!.cron;

function modelApi(label: string, overrides: Partial<TestEnv> = {}) {
  const name = `${label}-${crypto.randomUUID().slice(0, 8)}`;
  const api = createApi(label, {
    MODERATION_PROVIDER: 'openai',
    MODERATION_BASE_URL: `${standIns()}/moderation/${name}`,
    MODERATION_API_KEY: 'sk-moderation-stand-in',
    HIDDEN_RIDERS_CACHE_MS: '0',
    ...overrides,
  });
  return {
    api,
    async script(script: ModerationScript) {
      const res = await fetch(`${standIns()}/moderation/${name}`, { method: 'PUT', body: JSON.stringify(script) });
      expect(res.status).toBe(204);
    },
    async requests(): Promise<RecordedModerationRequest[]> {
      return (await fetch(`${standIns()}/moderation/${name}/requests`)).json();
    },
    async runLaterChecks() {
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ cron: checkCron() }), api.env, ctx);
      await waitOnExecutionContext(ctx);
    },
  };
}

const stored = (api: Api, collection: string, id: string) =>
  api.db((db) => db.collection(collection).findOne({ _id: new ObjectId(id) }));
const reportsOn = (api: Api, targetId: string) =>
  api.db((db) =>
    db
      .collection('reports')
      .find({ targetId: new ObjectId(targetId) })
      .toArray(),
  );
const checks = (api: Api) => api.db((db) => db.collection('content_checks').find().toArray());

describe('with the moderation model configured', () => {
  const model = modelApi('held-by-model');
  const { api } = model;

  it('holds a flagged post for its author alone and files an open model report with the categories', async () => {
    await model.script({ flagWords: ['kook-slur'] });
    const [author, reader] = [await register(api), await register(api)];
    const res = await call(api, 'POST', '/api/feed', { as: author, json: { text: 'you kook-slur' } });
    expect(res.status).toBe(201);
    const post = await res.json<{ _id: string; held?: boolean }>();
    expect(post.held).toBe(true);
    expect((await stored(api, 'feed_posts', post._id))?.withheld).toEqual({ reason: 'review', at: expect.any(Date) });
    const [report, ...more] = await reportsOn(api, post._id);
    expect(more).toEqual([]);
    expect(report).toMatchObject({
      targetType: 'post',
      status: 'open',
      source: 'model',
      categories: ['harassment', 'violence'],
      reason: 'harassment',
    });
    expect(report).not.toHaveProperty('reporterId');
    expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(404);
    expect(await (await call(api, 'GET', `/api/feed/${post._id}`, { as: author })).json()).toMatchObject({
      held: true,
    });
    // The request as OpenAI's endpoint takes it.
    const [request] = (await model.requests()).slice(-1);
    expect(request).toEqual({
      authorization: 'Bearer sk-moderation-stand-in',
      body: { model: 'omni-moderation-latest', input: 'you kook-slur' },
    });
  });

  it('publishes a post the model does not flag, with no report, and the riders’ slang untouched', async () => {
    await model.script({ flagWords: ['kook-slur'] });
    const [author, reader] = [await register(api), await register(api)];
    const post = await (
      await call(api, 'POST', '/api/feed', { as: author, json: { text: 'hucked it, got smoked' } })
    ).json<any>();
    expect(post).not.toHaveProperty('held');
    expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(200);
    expect(await reportsOn(api, post._id)).toEqual([]);
  });

  it("holds a flagged comment, files its report with the post, and leaves it out of others' lists", async () => {
    await model.script({ flagWords: ['kook-slur'] });
    const [author, commenter] = [await register(api), await register(api)];
    const post = await (await call(api, 'POST', '/api/feed', { as: author, json: { text: 'clean line' } })).json<any>();
    const res = await call(api, 'POST', `/api/feed/${post._id}/comments`, {
      as: commenter,
      json: { text: 'kook-slur' },
    });
    expect(res.status).toBe(201);
    const comment = await res.json<{ _id: string; held?: boolean }>();
    expect(comment.held).toBe(true);
    expect(await reportsOn(api, comment._id)).toEqual([
      expect.objectContaining({ targetType: 'comment', postId: new ObjectId(post._id), source: 'model' }),
    ]);
    const list = async (as: typeof author) =>
      (await (await call(api, 'GET', `/api/feed/${post._id}/comments`, { as })).json<{ items: unknown[] }>()).items;
    expect(await list(author)).toEqual([]);
    expect(await list(commenter)).toEqual([expect.objectContaining({ _id: comment._id, held: true })]);
  });

  it('holds a flagged photo for its owner alone, and the post it is attached to', async () => {
    await model.script({ flagImages: true });
    const [owner, reader] = [await register(api), await register(api)];
    const photo = await uploadPhoto(api, owner, phoneJpeg());
    expect(photo).toMatchObject({ held: true });
    const [request] = (await model.requests()).slice(-1);
    const input = request!.body.input as { type: string; image_url: { url: string } }[];
    expect(input).toEqual([
      { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) } },
    ]);
    // Sent stripped of its metadata, as stored: no location leaves for the model.
    expect(atob(input[0]!.image_url.url.split(',')[1]!)).not.toContain('GPSLatitude');

    await model.script({});
    const res = await call(api, 'POST', '/api/feed', { as: owner, json: { media: [{ mediaId: photo.mediaId }] } });
    const post = await res.json<{ _id: string; held?: boolean }>();
    expect(post.held).toBe(true);
    expect(await reportsOn(api, post._id)).toEqual([
      expect.objectContaining({ source: 'model', categories: ['sexual'], reason: 'nudity' }),
    ]);
    expect((await call(api, 'GET', `/api/media/${photo.mediaId}`, { as: reader })).status).toBe(404);
    expect((await call(api, 'GET', `/api/media/${photo.mediaId}`)).status).toBe(404);
    const own = await call(api, 'GET', `/api/media/${photo.mediaId}`, { as: owner });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    await own.arrayBuffer();
  });
});

describe('an outage of the moderation model', () => {
  it('never blocks a post: published, queued, counted; the later check holds it once the model flags it', async () => {
    const points: AnalyticsEngineDataPoint[] = [];
    const metrics = { writeDataPoint: (point: AnalyticsEngineDataPoint) => points.push(point) };
    const model = modelApi('held-by-model-outage', { METRICS: metrics as unknown as TestEnv['METRICS'] });
    const { api } = model;
    await model.script({ down: 503 });
    const [author, reader] = [await register(api), await register(api)];
    let postId = '';
    const lines = await captureLogLines(async () => {
      const res = await call(api, 'POST', '/api/feed', { as: author, json: { text: 'kook-slur while it is down' } });
      expect(res.status).toBe(201);
      postId = (await res.json<{ _id: string; held?: boolean }>())._id;
    });
    expect(eventLines(lines, 'moderation.check.deferred')).toEqual([
      expect.objectContaining({ level: 'warn', targetType: 'post', targetId: postId, error: 'the model answered 503' }),
    ]);
    expect((await call(api, 'GET', `/api/feed/${postId}`, { as: reader })).status).toBe(200);
    expect(await checks(api)).toEqual([
      expect.objectContaining({ target: { type: 'post', id: new ObjectId(postId) }, status: 'pending', attempts: 0 }),
    ]);

    // Still down at the first run: retried later, not given up.
    await model.runLaterChecks();
    const [retried] = await checks(api);
    expect(retried).toMatchObject({ status: 'pending', attempts: 1 });
    expect(retried!.leaseUntil.getTime()).toBeGreaterThan(Date.now());

    // Up again and flagging it: once its retry falls due, the run holds it and files the report.
    await model.script({ flagWords: ['kook-slur'] });
    await api.db((db) =>
      db.collection('content_checks').updateMany({}, { $set: { leaseUntil: new Date(Date.now() - 1000) } }),
    );
    await model.runLaterChecks();
    expect(await checks(api)).toEqual([expect.objectContaining({ status: 'flagged', attempts: 2 })]);
    expect((await stored(api, 'feed_posts', postId))?.withheld).toMatchObject({ reason: 'review' });
    expect(await reportsOn(api, postId)).toEqual([expect.objectContaining({ source: 'model', status: 'open' })]);
    expect(points.filter((point) => point.blobs?.[0] === 'moderation.checks').map((point) => point.blobs)).toEqual([
      ['moderation.checks', 'post', 'deferred'],
      ['moderation.checks', 'post', 'retried'],
      ['moderation.checks', 'post', 'flagged'],
    ]);
    expect((await call(api, 'GET', `/api/feed/${postId}`, { as: reader })).status).toBe(404);
    expect((await call(api, 'GET', `/api/feed/${postId}`, { as: author })).status).toBe(200);
  });

  it('publishes a post when the model does not answer within MODERATION_TIMEOUT_MS; the later check clears it', async () => {
    const model = modelApi('held-by-model-hang', { MODERATION_TIMEOUT_MS: '300' });
    const { api } = model;
    await model.script({ down: 'hang' });
    const author = await register(api);
    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await call(api, 'POST', '/api/feed', { as: author, json: { text: 'slow model day' } });
    });
    expect(res.status).toBe(201);
    expect(eventLines(lines, 'moderation.check.deferred')).toEqual([
      expect.objectContaining({ error: 'no answer within 300 ms' }),
    ]);
    const post = await res.json<{ _id: string; held?: boolean }>();
    expect(post).not.toHaveProperty('held');
    await model.script({});
    await model.runLaterChecks();
    expect(await checks(api)).toEqual([expect.objectContaining({ status: 'clear', attempts: 1 })]);
    expect((await stored(api, 'feed_posts', post._id))?.withheld).toBeUndefined();
  });

  it('queues a photo the model did not answer for, and the later check holds it with the post it was attached to', async () => {
    const model = modelApi('held-by-model-photo-outage');
    const { api } = model;
    await model.script({ down: 502 });
    const [owner, reader] = [await register(api), await register(api)];
    const photo = await uploadPhoto(api, owner, phoneJpeg());
    expect(photo).not.toHaveProperty('held');
    const post = await (
      await call(api, 'POST', '/api/feed', { as: owner, json: { media: [{ mediaId: photo.mediaId }] } })
    ).json<{ _id: string }>();
    expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(200);
    await model.script({ flagImages: true });
    await model.runLaterChecks();
    expect((await stored(api, 'media', photo.mediaId))?.withheld).toMatchObject({
      reason: 'review',
      categories: ['sexual'],
    });
    expect((await call(api, 'GET', `/api/feed/${post._id}`, { as: reader })).status).toBe(404);
    expect((await call(api, 'GET', `/api/media/${photo.mediaId}`, { as: reader })).status).toBe(404);
    expect(await reportsOn(api, post._id)).toEqual([
      expect.objectContaining({ source: 'model', categories: ['sexual'] }),
    ]);
  });
});

describe('the moderation settings', () => {
  it('refuse a write while MODERATION_PROVIDER is set without MODERATION_API_KEY, naming it, before anything is stored', async () => {
    const api = createApi('held-by-model-nokey', { MODERATION_PROVIDER: 'openai', MODERATION_API_KEY: '' });
    const author = await register(api);
    const res = await call(api, 'POST', '/api/feed', { as: author, json: { text: 'anything' } });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('MODERATION_API_KEY');
    expect(await api.db((db) => db.collection('feed_posts').countDocuments())).toBe(0);
    const photo = await api.fetch('/api/media', {
      method: 'POST',
      headers: { 'x-auth-token': author.token, 'content-type': 'image/jpeg' },
      body: phoneJpeg(),
    });
    expect(photo.status).toBe(500);
    expect((await photo.json<{ error: string }>()).error).toContain('MODERATION_API_KEY');
    expect(await api.db((db) => db.collection('media').countDocuments())).toBe(0);
  });

  it('refuse a provider the service does not speak, naming MODERATION_PROVIDER', async () => {
    const api = createApi('held-by-model-provider', { MODERATION_PROVIDER: 'acme', MODERATION_API_KEY: 'k' });
    const res = await call(api, 'POST', '/api/feed', { as: await register(api), json: { text: 'anything' } });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('MODERATION_PROVIDER');
  });

  it('without a provider, ask no model: the post is published as sent', async () => {
    const name = `held-by-model-off-${crypto.randomUUID().slice(0, 8)}`;
    const api = createApi('held-by-model-off', { MODERATION_BASE_URL: `${standIns()}/moderation/${name}` });
    const res = await call(api, 'POST', '/api/feed', { as: await register(api), json: { text: 'kook-slur' } });
    expect(res.status).toBe(201);
    expect(await res.json()).not.toHaveProperty('held');
    expect(await (await fetch(`${standIns()}/moderation/${name}/requests`)).json()).toEqual([]);
    expect(await api.db((db) => db.collection('content_checks').countDocuments())).toBe(0);
  });
});
