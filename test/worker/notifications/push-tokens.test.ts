import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { markWebSubscriptionGone } from '../../../worker/notifications/push-tokens/service';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { pushTestbed } from '../../support/expo-push-stand-in';

const push = pushTestbed('push-tokens');
const { api } = push;

describeAccessChecks(api, [
  {
    method: 'POST',
    path: '/api/push-tokens',
    check: 'auth',
    json: { token: 'ExponentPushToken[access-check]', platform: 'ios', transport: 'gateway' },
  },
  { method: 'DELETE', path: '/api/push-tokens/:token', check: 'auth' },
  { method: 'DELETE', path: '/api/push-tokens?platform=web&endpoint=https://push.example/x', check: 'auth' },
  { method: 'POST', path: '/api/push-tokens/remove', check: 'auth', json: { token: 'ExponentPushToken[x]' } },
]);

const expoToken = () => `ExponentPushToken[${crypto.randomUUID()}]`;
const subscription = () => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
  expirationTime: null,
  keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
});

const post = (as: TestAccount, json: unknown) =>
  api.fetch('/api/push-tokens', { method: 'POST', json, headers: { 'x-auth-token': as.token } });
const remove = (as: TestAccount, path: string) =>
  api.fetch(path, { method: 'DELETE', headers: { 'x-auth-token': as.token } });
const stored = (token: string) => api.db((db) => db.collection('pushTokens').findOne({ token }));

describe('POST /api/push-tokens', () => {
  it('registers an Expo token with its device fields and answers 201', async () => {
    const rider = await register(api);
    const token = expoToken();
    const res = await post(rider, {
      token,
      platform: 'android',
      transport: 'gateway',
      appVersion: '2.1.0',
      deviceModel: 'Pixel 9',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      token,
      platform: 'android',
      transport: 'gateway',
      timezone: 'Europe/Berlin',
    });
    expect(await stored(token)).toMatchObject({ userId: new ObjectId(rider._id), deadAt: null, deadReason: null });
  });

  it('accepts both Expo token spellings and refuses any other token for the gateway, naming the field', async () => {
    const rider = await register(api);
    expect(
      (await post(rider, { token: `ExpoPushToken[${crypto.randomUUID()}]`, platform: 'ios', transport: 'gateway' }))
        .status,
    ).toBe(201);
    const bad = await post(rider, { token: 'abc123', platform: 'ios', transport: 'gateway' });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ details: { field: string }[] }>()).details.map((d) => d.field)).toEqual(['token']);
  });

  it('upserts by token: registering again keeps one document and refreshes lastSeenAt', async () => {
    const rider = await register(api);
    const token = expoToken();
    await post(rider, { token, platform: 'ios', transport: 'gateway', appVersion: '1.0.0' });
    const first = await stored(token);
    await post(rider, { token, platform: 'ios', transport: 'gateway', appVersion: '1.1.0' });
    expect(await api.db((db) => db.collection('pushTokens').countDocuments({ token }))).toBe(1);
    const second = await stored(token);
    expect(second).toMatchObject({ _id: first!._id, appVersion: '1.1.0' });
    expect(second!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(first!.lastSeenAt.getTime());
  });

  it('re-owns a token that moves to another account, and concurrent registrations leave one document', async () => {
    const [first, second] = [await register(api), await register(api)];
    const token = expoToken();
    const body = { token, platform: 'ios', transport: 'gateway' };
    await Promise.all([post(first, body), post(first, body), post(first, body)]);
    await post(second, body);
    expect(await api.db((db) => db.collection('pushTokens').find({ token }).toArray())).toMatchObject([
      { userId: new ObjectId(second._id) },
    ]);
    expect((await remove(first, `/api/push-tokens/${encodeURIComponent(token)}`)).status).toBe(404);
  });

  it('revives a dead token that registers again', async () => {
    const rider = await register(api);
    const token = expoToken();
    await post(rider, { token, platform: 'ios', transport: 'gateway' });
    await api.db((db) =>
      db
        .collection('pushTokens')
        .updateOne({ token }, { $set: { deadAt: new Date(), deadReason: 'DeviceNotRegistered' } }),
    );
    await post(rider, { token, platform: 'ios', transport: 'gateway' });
    expect(await stored(token)).toMatchObject({ deadAt: null, deadReason: null });
  });

  it('takes a web push subscription as an object or as the token string, stored under its endpoint', async () => {
    const rider = await register(api);
    const asObject = subscription();
    const res = await post(rider, { subscription: asObject, platform: 'web', transport: 'webpush' });
    expect(res.status).toBe(201);
    expect(await stored(asObject.endpoint)).toMatchObject({ endpoint: asObject.endpoint, keys: asObject.keys });
    const asString = subscription();
    expect((await post(rider, { token: JSON.stringify(asString), platform: 'web', transport: 'webpush' })).status).toBe(
      201,
    );
    expect(await stored(asString.endpoint)).toMatchObject({ transport: 'webpush', keys: asString.keys });
  });

  it('refuses a malformed web subscription and mismatched platform and transport, naming each field', async () => {
    const rider = await register(api);
    const broken = { endpoint: 'http://insecure.example/x', keys: { p256dh: 'short', auth: 'A'.repeat(22) } };
    const res = await post(rider, {
      subscription: broken,
      platform: 'web',
      transport: 'webpush',
      timezone: 'Mars/Base',
    });
    expect(res.status).toBe(400);
    const fields = (await res.json<{ details: { field: string }[] }>()).details.map((d) => d.field).sort();
    expect(fields).toEqual(['subscription.endpoint', 'subscription.keys.p256dh', 'timezone']);
    const mixed = await post(rider, { token: expoToken(), platform: 'web', transport: 'gateway' });
    expect((await mixed.json<{ details: { field: string }[] }>()).details.map((d) => d.field).sort()).toEqual([
      'subscription',
      'transport',
    ]);
  });
});

describe('DELETE /api/push-tokens', () => {
  it('removes your token by its URL-encoded value, and 404s for one that is not yours', async () => {
    const [owner, other] = [await register(api), await register(api)];
    const token = expoToken();
    await post(owner, { token, platform: 'ios', transport: 'gateway' });
    const path = `/api/push-tokens/${encodeURIComponent(token)}`;
    expect((await remove(other, path)).status).toBe(404);
    const res = await remove(owner, path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, token });
    expect(await stored(token)).toBeNull();
    expect((await remove(owner, path)).status).toBe(404);
  });

  it('removes your web subscription by platform=web and endpoint', async () => {
    const [owner, other] = [await register(api), await register(api)];
    const web = subscription();
    await post(owner, { subscription: web, platform: 'web', transport: 'webpush' });
    const path = `/api/push-tokens?platform=web&endpoint=${encodeURIComponent(web.endpoint)}`;
    expect((await remove(other, path)).status).toBe(404);
    expect((await remove(owner, path)).status).toBe(200);
    expect(await stored(web.endpoint)).toBeNull();
    expect((await remove(owner, `/api/push-tokens?platform=ios&endpoint=x`)).status).toBe(400);
    const control = await remove(
      owner,
      `/api/push-tokens?platform=web&endpoint=${encodeURIComponent(web.endpoint)}%00`,
    );
    expect(control.status).toBe(400);
    expect((await control.json<any>()).details).toEqual([
      { field: 'endpoint', message: 'must not contain control characters' },
    ]);
  });
});

describe('POST /api/push-tokens/remove', () => {
  const removeByBody = (as: TestAccount, json: unknown) =>
    api.fetch('/api/push-tokens/remove', { method: 'POST', json, headers: { 'x-auth-token': as.token } });

  it('removes your token or web subscription named in the body, so no URL carries it; 404 for one not yours', async () => {
    const [owner, other] = [await register(api), await register(api)];
    const token = expoToken();
    await post(owner, { token, platform: 'ios', transport: 'gateway' });
    expect((await removeByBody(other, { token })).status).toBe(404);
    const res = await removeByBody(owner, { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, token });
    expect(await stored(token)).toBeNull();

    const web = subscription();
    await post(owner, { subscription: web, platform: 'web', transport: 'webpush' });
    expect((await removeByBody(owner, { platform: 'web', endpoint: web.endpoint })).status).toBe(200);
    expect(await stored(web.endpoint)).toBeNull();
  });

  it('refuses a body naming neither or both, with a 400', async () => {
    const rider = await register(api);
    expect((await removeByBody(rider, {})).status).toBe(400);
    expect((await removeByBody(rider, { token: expoToken(), endpoint: 'https://fcm.googleapis.com/x' })).status).toBe(
      400,
    );
  });
});

describe('web push 410 Gone (model level)', () => {
  it('marks the subscription dead with deadReason 410-Gone, once', async () => {
    const rider = await register(api);
    const web = subscription();
    await post(rider, { subscription: web, platform: 'web', transport: 'webpush' });
    const at = new Date('2026-11-01T10:00:00Z');
    expect(await push.withStore((store) => markWebSubscriptionGone(store, web.endpoint, at))).toBe(1);
    expect(await push.withStore((store) => markWebSubscriptionGone(store, web.endpoint, new Date()))).toBe(0);
    expect(await stored(web.endpoint)).toMatchObject({ deadAt: at, deadReason: '410-Gone' });
  });

  it('declares the 30-day TTL on deadAt that purges dead tokens', async () => {
    await api.fetch('/api/health');
    const indexes = await api.db((db) => db.collection('pushTokens').indexes());
    expect(indexes.find((index) => index.name === 'deadAt_ttl')).toMatchObject({
      key: { deadAt: 1 },
      expireAfterSeconds: 2592000,
    });
  });
});
