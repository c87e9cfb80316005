import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { runReminders } from '../../../worker/riding/reminders/run';
import { register } from '../../support/accounts';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';
import { captureLogLines, eventLines } from '../../support/log-lines';

// The reminder run over trick lists older code stored (no open time, no cadence, a number for a name) and over a
// claimed row it cannot read: the run goes on, skips and counts that row, and pauses no list on its first pass.

const push = pushTestbed('legacy-riding-reminders');
const { api } = push;
const DAY = 86_400_000;
const now = new Date();
const run = (at: Date) => push.withStore((store) => runReminders(store, api.env, at));
const stored = (collection: string, _id: unknown) =>
  api.db((db) => db.collection(collection).findOne({ _id } as never)) as Promise<any>;

const listId = new ObjectId();
const goodRow = new ObjectId();
const badRow = new ObjectId();
let token: string;
let summary: Awaited<ReturnType<typeof run>>;
let lines: string[];

/** A due reminder row as the service plans one, with `fields` as older or broken writes left them. */
const dueRow = (_id: ObjectId, userId: ObjectId, fields: object) => ({
  _id,
  userId,
  listId,
  trickId: null,
  category: 'reminder',
  scheduledFor: new Date(now.getTime() - 60_000),
  status: 'pending',
  idempotencyKey: `legacy-${_id}`,
  attemptCount: 0,
  lastAttemptAt: null,
  leaseId: null,
  leaseUntil: new Date(0),
  createdAt: now,
  updatedAt: now,
  ...fields,
});

beforeAll(async () => {
  const rider = await register(api);
  const userId = new ObjectId(rider._id);
  const live = liveExpoToken(userId, now);
  token = live.token;
  await api.fetch('/api/health');
  await api.db(async (db) => {
    await db.collection('pushTokens').insertOne(live.doc);
    const quietHours = { start: '00:00', end: '00:00', timezone: 'UTC' };
    await db.collection('users').updateOne({ _id: userId }, { $set: { notificationPreferences: { quietHours } } });
    await db.collection('tricklists').insertOne({ _id: listId, userId, name: 42, createdAt: new Date('2019-01-01') });
    await db.collection('tricks').insertOne({ _id: new ObjectId(), userId, listId, name: 'Fakie', completed: 'false' });
    await db
      .collection('scheduledNotifications')
      .insertMany([
        dueRow(goodRow, userId, { attemptCount: '2' }),
        dueRow(badRow, userId, { listId: 'not-an-id', idempotencyKey: `legacy-${badRow}` }),
      ]);
  });
  lines = await captureLogLines(async () => {
    summary = await run(now);
  });
});

describe('a reminder run over legacy documents', () => {
  it('sends the readable row, counting its attempt stored as text, and skips and counts the unreadable one', async () => {
    expect(summary).toMatchObject({ claimed: 2, sent: 1, skipped: 1, failed: 0 });
    const sent = (await push.sent()).filter((message) => message.to === token);
    expect(sent.map((message) => message.title)).toEqual(['42']);
    expect(await stored('scheduledNotifications', goodRow)).toMatchObject({ status: 'sent', attemptCount: 3 });
    expect(await stored('scheduledNotifications', badRow)).toMatchObject({
      status: 'failed',
      outcomeReason: 'unreadable',
      leaseId: null,
    });
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'scheduledNotifications', id: badRow.toHexString() }),
    ]);
  });

  it('does not pause a list stored without an open time on the first run, and pauses it 60 days later', async () => {
    expect(summary.paused).toBe(0);
    expect((await stored('tricklists', listId)).reminderCadence).toBeUndefined();
    const later = new Date(now.getTime() + (LIMITS.reminders.autoPauseDays + 1) * DAY);
    expect((await run(later)).paused).toBe(1);
    expect((await stored('tricklists', listId)).reminderCadence).toBe('off');
  });
});
