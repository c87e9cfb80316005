import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('notification-preferences');
const PATH = '/api/users/me/notification-preferences';

describeAccessChecks(api, [
  { method: 'GET', path: PATH, check: 'auth' },
  { method: 'PATCH', path: PATH, check: 'auth', json: { messages: { push: false } } },
]);

const get = (as: TestAccount) => api.fetch(PATH, { headers: { 'x-auth-token': as.token } });
const patch = (as: TestAccount, json: unknown) =>
  api.fetch(PATH, { method: 'PATCH', json, headers: { 'x-auth-token': as.token } });

describe('GET /api/users/me/notification-preferences', () => {
  it("answers the interface spec's defaults before any change, quiet hours in UTC without a device", async () => {
    const res = await get(await register(api));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      messages: { push: true, inApp: true, email: false },
      reminders: { push: true, inApp: false, email: false },
      events: { push: true, inApp: true, email: false },
      quietHours: { start: '21:00', end: '09:00', timezone: 'UTC' },
      osPermission: { ios: 'unknown', android: 'unknown', web: 'unknown' },
      softAsk: { ios: {}, android: {}, web: {} },
      shouldAsk: { ios: true, android: true, web: true },
      updatedAt: null,
    });
  });

  it("takes the default quiet-hours zone from the rider's newest registered device", async () => {
    const rider = await register(api);
    for (const timezone of ['America/Denver', 'Asia/Tokyo']) {
      await api.fetch('/api/push-tokens', {
        method: 'POST',
        headers: { 'x-auth-token': rider.token },
        json: { token: `ExponentPushToken[${crypto.randomUUID()}]`, platform: 'ios', transport: 'gateway', timezone },
      });
    }
    expect((await (await get(rider)).json<{ quietHours: object }>()).quietHours).toMatchObject({
      timezone: 'Asia/Tokyo',
    });
  });
});

describe('PATCH /api/users/me/notification-preferences', () => {
  it('deep-merges a partial change: fields left out keep their value', async () => {
    const rider = await register(api);
    await patch(rider, { quietHours: { timezone: 'Europe/Berlin' }, osPermission: { ios: 'granted' } });
    const res = await patch(rider, { messages: { push: false }, quietHours: { start: '22:30' } });
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      messages: { push: false, inApp: true, email: false },
      reminders: { push: true, inApp: false, email: false },
      quietHours: { start: '22:30', end: '09:00', timezone: 'Europe/Berlin' },
      osPermission: { ios: 'granted', android: 'unknown', web: 'unknown' },
    });
    expect(typeof body.updatedAt).toBe('string');
    expect(await (await get(rider)).json()).toEqual(body);
  });

  it("patches the events category like the spec's two, leaving them as they were", async () => {
    const rider = await register(api);
    const res = await patch(rider, { events: { push: false } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      messages: { push: true, inApp: true, email: false },
      reminders: { push: true, inApp: false, email: false },
      events: { push: false, inApp: true, email: false },
    });
  });

  it('keeps both of two concurrent changes to different fields', async () => {
    const rider = await register(api);
    await Promise.all([
      patch(rider, { reminders: { push: false } }),
      patch(rider, { reminders: { email: true } }),
      patch(rider, { osPermission: { android: 'denied' } }),
    ]);
    expect(await (await get(rider)).json()).toMatchObject({
      reminders: { push: false, inApp: false, email: true },
      osPermission: { android: 'denied' },
    });
  });

  it('refuses bad times, unknown zones, unknown enum values and unknown fields with a 400 naming each', async () => {
    const rider = await register(api);
    const res = await patch(rider, {
      quietHours: { start: '24:00', end: '9:00', timezone: 'Mars/Olympus' },
      osPermission: { web: 'maybe' },
      messages: { push: 'yes' },
    });
    expect(res.status).toBe(400);
    const fields = (await res.json<{ details: { field: string }[] }>()).details.map((d) => d.field).sort();
    expect(fields).toEqual([
      'messages.push',
      'osPermission.web',
      'quietHours.end',
      'quietHours.start',
      'quietHours.timezone',
    ]);
    const unknown = await patch(rider, { sms: { push: true } });
    expect(unknown.status).toBe(400);
    expect(await (await get(rider)).json()).toMatchObject({ updatedAt: null });
  });
});
