import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { recordEventChanges } from '../../../worker/events/changes/record';
import type { EventDoc } from '../../../worker/events/documents';
import { SCHEDULES } from '../../../worker/schedules';
import { eventDoc, insertEvents } from '../../support/events';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';

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
