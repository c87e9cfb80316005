import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { recordEventChanges } from '../../../worker/events/changes/record';
import type { EventDoc } from '../../../worker/events/documents';
import { runEventNotifications } from '../../../worker/events/notifications/run';
import { SCHEDULES } from '../../../worker/schedules';
import { eventDoc, insertEvents } from '../../support/events';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';
import { captureLogLines, eventLines } from '../../support/log-lines';

// The event notification worker over events and saves older code left odd: each rider still hears of the change.

const push = pushTestbed('event-notifications-legacy');
const { api } = push;
const CRON = SCHEDULES.find((schedule) => schedule.job === 'event notifications')!.cron;
const HOUR = 3_600_000;

async function rider(db: Db) {
  const userId = new ObjectId();
  const { token, doc } = liveExpoToken(userId);
  await db.collection('users').insertOne({
    _id: userId,
    email: `${userId.toHexString()}@example.com`,
    name: 'Rider',
    notificationPreferences: { quietHours: { start: '00:00', end: '00:00', timezone: 'UTC' } },
  });
  await db.collection('pushTokens').insertOne(doc);
  return { userId, token };
}

describe('event notifications over legacy events', () => {
  it('tells a rider whose save holds ObjectIds of a change to an event whose title and city are numbers', async () => {
    await push.script({});
    const event: Record<string, unknown> & { _id: ObjectId } = {
      ...eventDoc({ approvalStatus: 'approved' }),
      title: 2024,
      venue: { name: 'Yard', city: 42 },
    };
    await insertEvents(api, [event]);
    const { token } = await api.db(async (db) => {
      const saver = await rider(db);
      await db
        .collection('event_saves')
        .insertOne({ userId: saver.userId, eventId: event._id, createdAt: '2020-01-01T00:00:00Z' });
      const after = { ...event, startAt: new Date((event.startAt as Date).getTime() + HOUR), updatedAt: new Date() };
      await db.collection('events').replaceOne({ _id: event._id }, after);
      await push.withStore((store) =>
        recordEventChanges(store, {
          before: event as unknown as Partial<EventDoc>,
          after: after as unknown as EventDoc,
          by: new ObjectId().toHexString(),
        }),
      );
      return saver;
    });
    await push.runCron(CRON);
    const messages = (await push.sent()).filter((message) => message.to === token);
    expect(messages).toEqual([expect.objectContaining({ title: '2024' })]);
  });
});

/** A due job as the change recorder writes it, with `fields` over it. */
const job = (userId: ObjectId, fields: Record<string, unknown>) => ({
  _id: new ObjectId(),
  kind: 'change',
  userId,
  jobKey: `change:${new ObjectId().toHexString()}:${userId.toHexString()}`,
  status: 'pending',
  dueAt: new Date(Date.now() - 60_000),
  leaseId: null,
  leaseUntil: new Date(Date.now() - HOUR),
  attemptCount: 0,
  fields: ['startAt'],
  reasons: ['saved'],
  createdAt: new Date(Date.now() - 60_000),
  updatedAt: new Date(Date.now() - 60_000),
  ...fields,
});

describe('event notifications over legacy jobs', () => {
  it('fails a job it cannot read with its event line, counts it, and sends the others', async () => {
    await push.script({});
    const event = eventDoc({ approvalStatus: 'approved', title: 'Clean Jam' });
    await insertEvents(api, [event]);
    const subscriptionId = new ObjectId();
    const { userId, token, bad, clean, digest } = await api.db(async (db) => {
      const { userId, token } = await rider(db);
      // A digest whose subscription older code left with a name object and lastDigestAt as text, its ids as hex.
      await db.collection('eventSubscriptions').insertOne({
        _id: subscriptionId.toHexString() as never,
        userId: userId.toHexString(),
        name: { en: 'Bowls' },
        sports: 'skateboarding',
        lastDigestAt: 'never',
      });
      const bad = [
        job(userId, { kind: undefined, eventId: event._id }),
        job(userId, { kind: null, eventIds: [event._id] }),
        job(userId, { kind: '', subscriptionId: 'gone' }),
        job(userId, { kind: 'digest', eventIds: [event._id] }),
      ];
      const clean = job(userId, { eventId: event._id, attemptCount: null });
      const digest = job(userId, {
        _id: new ObjectId().toHexString(),
        kind: 'digest',
        jobKey: `digest:${subscriptionId.toHexString()}`,
        subscriptionId: subscriptionId.toHexString(),
        eventIds: [event._id.toHexString()],
      });
      await db.collection('eventNotificationJobs').insertMany([...bad, clean, digest] as never[]);
      return { userId, token, bad, clean, digest };
    });
    let summary: Awaited<ReturnType<typeof runEventNotifications>> | undefined;
    const lines = await captureLogLines(async () => {
      summary = await push.withStore((store) => runEventNotifications(store, api.env));
    });
    expect(summary).toMatchObject({ claimed: 6, sent: 2, failed: 4 });
    expect(eventLines(lines, 'store.document.unreadable').map((line) => line.id)).toEqual(
      expect.arrayContaining(bad.map((row) => row._id.toHexString())),
    );
    const jobs = await api.db((db) => db.collection('eventNotificationJobs').find({ userId }).toArray());
    const statusOf = (id: unknown) => jobs.find((row) => String(row._id) === String(id));
    for (const row of bad) expect(statusOf(row._id)).toMatchObject({ status: 'failed', outcomeReason: 'unreadable' });
    expect(statusOf(clean._id)).toMatchObject({ status: 'sent', attemptCount: 1 });
    expect(statusOf(digest._id)).toMatchObject({ status: 'sent' });
    const titles = (await push.sent()).filter((message) => message.to === token).map((message) => message.title);
    expect(titles.sort()).toEqual(['Clean Jam', 'New events for you']);
  });
});
