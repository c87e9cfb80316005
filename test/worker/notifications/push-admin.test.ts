import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { registerToken } from '../../../worker/notifications/push-tokens/service';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin } from '../../support/accounts';
import { pushTestbed } from '../../support/expo-push-stand-in';
import { createApi } from '../../support/worker-api';

const push = pushTestbed('push-admin', { VAPID_PUBLIC_KEY: 'BPublicVapidKeyForTests' });
const { api } = push;

describeAccessChecks(api, [
  {
    method: 'POST',
    path: '/api/admin/notifications/test',
    check: 'admin',
    json: { userId: new ObjectId().toHexString(), category: 'messages', body: 'hello' },
  },
]);

const sendTest = async (json: unknown) => {
  const admin = await registerAdmin(api);
  return api.fetch('/api/admin/notifications/test', { method: 'POST', json, headers: { 'x-auth-token': admin.token } });
};

describe('POST /api/admin/notifications/test', () => {
  it('sends to every live token of the user, even in quiet hours with the category off, and answers the tickets', async () => {
    await push.script({});
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    const tokens = [`ExponentPushToken[adm-${crypto.randomUUID()}]`, `ExpoPushToken[adm-${crypto.randomUUID()}]`];
    await push.withStore(async (store) => {
      for (const token of tokens) await registerToken(store, userId, { token, platform: 'ios', transport: 'gateway' });
    });
    await api.db((db) =>
      db.collection('users').updateOne(
        { _id: userId },
        {
          $set: {
            'notificationPreferences.reminders.push': false,
            'notificationPreferences.quietHours': { start: '00:00', end: '23:59', timezone: 'UTC' },
          },
        },
      ),
    );
    const res = await sendTest({ userId: rider._id, category: 'reminders', body: 'Is this   thing on?' });
    expect(res.status).toBe(200);
    const answer = await res.json<{
      status: string;
      tickets: { token: string; status: string; ticketId?: string }[];
    }>();
    expect(answer.status).toBe('accepted');
    expect(answer.tickets.map((t) => t.token).sort()).toEqual([...tokens].sort());
    expect(answer.tickets.every((t) => t.status === 'ok' && t.ticketId)).toBe(true);
    expect((await push.sent())[0]).toMatchObject({
      title: 'Test notification',
      body: 'Is this thing on?',
      channelId: 'reminders',
    });
  });

  it('answers skipped with no live token, and 404 for an unknown user', async () => {
    const rider = await register(api);
    expect(await (await sendTest({ userId: rider._id, category: 'messages', body: 'x' })).json()).toEqual({
      status: 'skipped',
      reason: 'no-live-tokens',
      tickets: [],
    });
    expect((await sendTest({ userId: new ObjectId().toHexString(), category: 'messages', body: 'x' })).status).toBe(
      404,
    );
  });
});

describe('GET /api/push/vapid-public-key', () => {
  it('answers the configured key without a token', async () => {
    const res = await api.fetch('/api/push/vapid-public-key');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ publicKey: 'BPublicVapidKeyForTests' });
  });

  it('refuses with a 500 naming VAPID_PUBLIC_KEY when it is not set', async () => {
    // Unset here even when .dev.vars (npm run setup) gives the local stack a key pair.
    const res = await createApi('push-admin-novapid', { VAPID_PUBLIC_KEY: '' }).fetch('/api/push/vapid-public-key');
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('VAPID_PUBLIC_KEY');
  });
});
