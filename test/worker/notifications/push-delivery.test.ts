import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { PushTokenDoc } from '../../../worker/notifications/documents';
import { type DeliveryRequest, deliver } from '../../../worker/notifications/push/deliver';
import { registerToken } from '../../../worker/notifications/push-tokens/service';
import { register } from '../../support/accounts';
import { pushTestbed } from '../../support/expo-push-stand-in';

const push = pushTestbed('push-delivery');

let serial = 0;
const expoToken = () => `ExponentPushToken[dlv-${++serial}-${crypto.randomUUID().slice(0, 8)}]`;

async function riderWithTokens(count: number, extra: Partial<Parameters<typeof registerToken>[2]> = {}) {
  const rider = await register(push.api);
  const userId = new ObjectId(rider._id);
  const tokens: string[] = [];
  await push.withStore(async (store) => {
    for (let i = 0; i < count; i++) {
      const token = expoToken();
      tokens.push(token);
      await registerToken(store, userId, { token, platform: 'ios', transport: 'gateway', ...extra });
    }
  });
  return { userId, tokens };
}

const reminder = (userId: ObjectId, key = 'k'): DeliveryRequest => ({
  userId,
  category: 'reminders',
  idempotencyKey: key,
  notification: {
    title: 'Kickflip time',
    body: 'Your list is waiting',
    threadId: 'reminder-x',
    channelId: 'reminders',
    data: { url: '/tricklists/x?fromReminder=1', category: 'reminders', idempotencyKey: key },
  },
});

const message = (userId: ObjectId): DeliveryRequest => ({
  userId,
  category: 'messages',
  notification: {
    title: 'Sam',
    body: 'see you at the park',
    threadId: 'conv-1',
    channelId: 'messages',
    group: 'conv-1',
    badge: 2,
    data: { url: '/conversations/conv-1', category: 'messages' },
  },
});

const noonUtc = new Date('2026-06-15T12:00:00Z');

describe('deliver', () => {
  it('sends one message per live token with the payload fields and stores one ticket per token', async () => {
    await push.script({});
    const { userId, tokens } = await riderWithTokens(2);
    const [outcome] = await push.withStore((store) => deliver(store, push.api.env, [message(userId)], noonUtc));
    expect(outcome?.status).toBe('accepted');
    const sent = await push.sent();
    expect(sent.map((m) => m.to).sort()).toEqual([...tokens].sort());
    expect(sent[0]).toMatchObject({
      title: 'Sam',
      body: 'see you at the park',
      channelId: 'messages',
      badge: 2,
      priority: 'high',
      data: { url: '/conversations/conv-1', category: 'messages', threadId: 'conv-1', group: 'conv-1' },
    });
    const log = await push.api.db((db) => db.collection('notificationDeliveryLog').find({ userId }).toArray());
    expect(log).toHaveLength(2);
    expect(log.every((row) => row.ticketId && row.receiptStatus === 'pending')).toBe(true);
  });

  it('skips a category whose push preference is off, and reminders in quiet hours but not messages', async () => {
    await push.script({});
    const off = await riderWithTokens(1);
    const quiet = await riderWithTokens(1);
    await push.api.db(async (db) => {
      await db
        .collection('users')
        .updateOne({ _id: off.userId }, { $set: { 'notificationPreferences.reminders.push': false } });
      await db
        .collection('users')
        .updateOne({ _id: quiet.userId }, { $set: { 'notificationPreferences.quietHours.timezone': 'Asia/Tokyo' } });
    });
    // 23:30 in Tokyo: inside the default 21:00-09:00 window.
    const at = new Date('2026-06-15T14:30:00Z');
    const outcomes = await push.withStore((store) =>
      deliver(store, push.api.env, [reminder(off.userId), reminder(quiet.userId), message(quiet.userId)], at),
    );
    expect(outcomes.map((o) => (o.status === 'skipped' ? o.reason : o.status))).toEqual([
      'category-off',
      'quiet-hours',
      'accepted',
    ]);
    expect((await push.sent()).map((m) => m.data.category)).toEqual(['messages']);
  });

  it('skips a user with no live token, and drops malformed tokens before sending', async () => {
    await push.script({});
    const none = await riderWithTokens(0);
    const mixed = await riderWithTokens(1);
    await push.api.db((db) =>
      db.collection<PushTokenDoc>('pushTokens').insertOne({
        _id: new ObjectId(),
        userId: mixed.userId,
        token: 'not-an-expo-token',
        platform: 'android',
        transport: 'gateway',
        lastSeenAt: new Date(),
        deadAt: null,
        deadReason: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    const outcomes = await push.withStore((store) =>
      deliver(store, push.api.env, [reminder(none.userId), reminder(mixed.userId)], noonUtc),
    );
    expect(outcomes[0]).toEqual({ status: 'skipped', reason: 'no-live-tokens' });
    expect(outcomes[1]?.status).toBe('accepted');
    expect((await push.sent()).map((m) => m.to)).toEqual(mixed.tokens);
  });

  it('sends 150 tokens in chunks of at most 100', async () => {
    await push.script({});
    const { userId, tokens } = await riderWithTokens(150);
    const [outcome] = await push.withStore((store) => deliver(store, push.api.env, [message(userId)], noonUtc));
    expect(outcome?.status === 'accepted' && outcome.tickets.length).toBe(150);
    const sizes = (await push.requests()).map((r) => (r.body as unknown[]).length);
    expect(sizes.sort((a, b) => b - a)).toEqual([100, 50]);
    expect(new Set((await push.sent()).map((m) => m.to))).toEqual(new Set(tokens));
  });

  it('retries a 429 with backoff within the run and then succeeds', async () => {
    const { userId, tokens } = await riderWithTokens(1);
    await push.script({ failFirst: { [tokens[0]!]: { status: 429, times: 1 } } });
    const [outcome] = await push.withStore((store) => deliver(store, push.api.env, [message(userId)], noonUtc));
    expect(outcome?.status).toBe('accepted');
    expect((await push.requests()).map((r) => r.status)).toEqual([429, 200]);
  });

  it('fails when every token errors, and a DeviceNotRegistered ticket marks the token dead', async () => {
    const { userId, tokens } = await riderWithTokens(1);
    await push.script({ ticketErrors: { [tokens[0]!]: 'DeviceNotRegistered' } });
    // Now, not noonUtc: a token marked dead months ago is past the 30-day TTL and the sweeper may purge it first.
    const [outcome] = await push.withStore((store) => deliver(store, push.api.env, [message(userId)], new Date()));
    expect(outcome?.status).toBe('failed');
    const token = await push.api.db((db) => db.collection('pushTokens').findOne({ token: tokens[0] }));
    expect(token).toMatchObject({ deadReason: 'DeviceNotRegistered' });
    expect(token?.deadAt).toBeInstanceOf(Date);
  });
});
