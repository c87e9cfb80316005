import { type Document, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type DeliveryRequest, deliver } from '../../../worker/notifications/push/deliver';
import { SCHEDULES } from '../../../worker/schedules';
import { register } from '../../support/accounts';
import { pushTestbed } from '../../support/expo-push-stand-in';
import { captureLogLines, eventLines } from '../../support/log-lines';

const push = pushTestbed('legacy-notifications');
const RECEIPTS_CRON = SCHEDULES.find((schedule) => schedule.job === 'push receipts')!.cron;
const noonUtc = new Date('2026-06-15T12:00:00Z');

const expoToken = () => `ExponentPushToken[legacy-${crypto.randomUUID().slice(0, 12)}]`;

/** Stores a push token as older code left it, straight through the driver. */
const seedToken = (fields: Document) =>
  push.api.db((db) => db.collection('pushTokens').insertOne({ _id: new ObjectId(), ...fields }));

const reminder = (userId: ObjectId, title: unknown = 'Kickflip time'): DeliveryRequest => ({
  userId,
  category: 'messages',
  notification: {
    title: title as string,
    body: 'Your list is waiting',
    threadId: 'legacy',
    data: { url: '/conversations/legacy', category: 'messages' },
  },
});

describe('push tokens stored by older code', () => {
  it('are sent to without a transport, with deadAt "", and with the owner id as a hex string', async () => {
    await push.script({});
    const rider = await register(push.api);
    const userId = new ObjectId(rider._id);
    const [bare, emptyDead, hexOwner] = [expoToken(), expoToken(), expoToken()];
    await seedToken({ userId, token: bare, platform: 'ios', createdAt: '2020-01-01' });
    await seedToken({ userId, token: emptyDead, transport: 'gateway', deadAt: '', deadReason: '' });
    await seedToken({ userId: rider._id, token: hexOwner, lastSeenAt: 'yesterday', timezone: 7 });
    // A native device token without a transport is no Expo token: it is not sent to.
    await seedToken({ userId, token: 'a1b2c3d4e5f6a7b8c9d0', platform: 'android' });
    const [outcome] = await push.withStore((store) => deliver(store, push.api.env, [reminder(userId)], noonUtc));
    expect(outcome?.status).toBe('accepted');
    expect((await push.sent()).map((message) => message.to).sort()).toEqual([bare, emptyDead, hexOwner].sort());
  });

  it('belong to their owner when the owner id was stored as a hex string: removed and re-registered', async () => {
    const rider = await register(push.api);
    const [removed, renewed] = [expoToken(), expoToken()];
    await seedToken({ userId: rider._id, token: removed });
    await seedToken({ userId: rider._id, token: renewed, createdAt: 'Tue Mar 05 2019', lastSeenAt: null });
    const deleted = await push.api.fetch(`/api/push-tokens/${encodeURIComponent(removed)}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': rider.token },
    });
    expect(deleted.status).toBe(200);
    const registered = await push.api.fetch('/api/push-tokens', {
      method: 'POST',
      headers: { 'x-auth-token': rider.token },
      json: { token: renewed, platform: 'ios', transport: 'gateway' },
    });
    expect(registered.status).toBe(201);
    expect(await registered.json()).toMatchObject({ token: renewed, createdAt: '2019-03-05T00:00:00.000Z' });
  });
});

describe('notification preferences stored by older code', () => {
  it('read as set where they read, and as the defaults where they do not', async () => {
    const rider = await register(push.api);
    await push.api.db((db) =>
      db.collection('users').updateOne(
        { _id: new ObjectId(rider._id) },
        {
          $set: {
            notificationPreferences: {
              messages: { push: 'false', inApp: 'maybe' },
              reminders: 'off',
              quietHours: { start: 930, end: '07:00', timezone: 'Mars/Olympus' },
              softAsk: { ios: { declinedAt: '2026-01-01T00:00:00Z' } },
              updatedAt: 'never',
            },
          },
        },
      ),
    );
    const res = await push.api.fetch('/api/users/me/notification-preferences', {
      headers: { 'x-auth-token': rider.token },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      messages: { push: false, inApp: true },
      reminders: { push: true },
      quietHours: { start: '21:00', end: '07:00', timezone: 'UTC' },
      softAsk: { ios: { declinedAt: '2026-01-01T00:00:00.000Z' } },
      updatedAt: null,
    });
  });

  it('take a change where older code stored a group as text', async () => {
    const rider = await register(push.api);
    await push.api.db((db) =>
      db
        .collection('users')
        .updateOne(
          { _id: new ObjectId(rider._id) },
          { $set: { notificationPreferences: { reminders: 'off', messages: { push: false } } } },
        ),
    );
    const res = await push.api.fetch('/api/users/me/notification-preferences', {
      method: 'PATCH',
      headers: { 'x-auth-token': rider.token },
      json: { reminders: { push: false } },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ reminders: { push: false }, messages: { push: false } });
  });
});

describe('one bad notification among good ones', () => {
  it('never keeps the others from going: a title built from a number is sent as its digits', async () => {
    await push.script({});
    const riders = await Promise.all(Array.from({ length: 4 }, () => register(push.api)));
    const ids = riders.map((rider) => new ObjectId(rider._id));
    for (const userId of ids) await seedToken({ userId, token: expoToken(), transport: 'gateway', deadAt: null });
    const requests = ids.map((userId, i) => reminder(userId, i === 1 ? 42 : i === 2 ? null : 'Good'));
    const outcomes = await push.withStore((store) => deliver(store, push.api.env, requests, noonUtc));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    expect((await push.sent()).map((message) => message.title).sort()).toEqual(['', '42', 'Good', 'Good']);
  });
});

describe('the push receipts cron over delivery-log rows older code left', () => {
  it('closes a row without a readable ticket id, checks the others, and says the run was partial', async () => {
    await push.script({});
    const rider = await register(push.api);
    const userId = new ObjectId(rider._id);
    const token = expoToken();
    await seedToken({ userId, token, transport: 'gateway', deadAt: null });
    await push.withStore((store) => deliver(store, push.api.env, [reminder(userId)], noonUtc));
    const badId = new ObjectId();
    await push.api.db(async (db) => {
      const log = db.collection('notificationDeliveryLog');
      await log.updateMany({ userId }, { $set: { sentAt: new Date(Date.now() - 31 * 60_000) } });
      await log.insertOne({
        _id: badId,
        userId,
        token,
        receiptStatus: 'pending',
        ticketId: { id: 'lost' },
        sentAt: new Date(Date.now() - 40 * 60_000),
      });
    });
    const lines = await captureLogLines(() => push.runCron(RECEIPTS_CRON));
    const rows = await push.api.db((db) => db.collection('notificationDeliveryLog').find({ userId }).toArray());
    expect(rows.find((row) => row._id.equals(badId))).toMatchObject({ receiptStatus: 'missing' });
    expect(rows.filter((row) => !row._id.equals(badId)).map((row) => row.receiptStatus)).toEqual(['ok']);
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'notificationDeliveryLog', id: badId.toHexString() }),
    ]);
    const cron = lines.map((line) => JSON.parse(line)).find((line) => line.kind === 'cron');
    expect(cron).toMatchObject({ job: 'push receipts', outcome: 'partial', itemsSkipped: 1, level: 'warn' });
  });
});
