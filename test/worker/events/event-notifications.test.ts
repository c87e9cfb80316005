import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { recordEventChanges } from '../../../worker/events/changes/record';
import type { EventDoc } from '../../../worker/events/documents';
import { runEventNotifications } from '../../../worker/events/notifications/run';
import { onEventPublished } from '../../../worker/events/subscriptions/match';
import { subscriptionKeys } from '../../../worker/events/subscriptions/match-keys';
import { SCHEDULES } from '../../../worker/schedules';
import { eventDoc, insertEvents } from '../../support/events';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';

// The event notification worker through the real Cron Trigger handler, against the Expo stand-in:
// one push per rider per change, never twice when two runs overlap, quiet hours and the `events`
// preference apply, and at most one digest per subscription per rolling 24 hours.

const push = pushTestbed('event-notifications');
const { api } = push;
const CRON = SCHEDULES.find((schedule) => schedule.job === 'event notifications')!.cron;
const runWorker = () => push.runCron(CRON);
const HOUR = 3_600_000;

/** A rider with one live Expo token and the given preferences (no quiet hours unless given). */
async function rider(db: Db, preferences: Record<string, unknown> = {}) {
  const userId = new ObjectId();
  const { token, doc } = liveExpoToken(userId);
  await db.collection('users').insertOne({
    _id: userId,
    email: `${userId.toHexString()}@example.com`,
    name: 'Rider',
    notificationPreferences: { quietHours: { start: '00:00', end: '00:00', timezone: 'UTC' }, ...preferences },
  });
  await db.collection('pushTokens').insertOne(doc);
  return { userId, token };
}

/** A published event whose start moves an hour later, recorded as an admin's edit. */
async function moveStart(db: Db, event: Record<string, unknown> & { _id: ObjectId }) {
  const after = { ...event, startAt: new Date((event.startAt as Date).getTime() + HOUR), updatedAt: new Date() };
  await db.collection('events').replaceOne({ _id: event._id }, after);
  return push.withStore((store) =>
    recordEventChanges(store, {
      before: event as Partial<EventDoc>,
      after: after as EventDoc,
      by: new ObjectId().toHexString(),
    }),
  );
}

const sentTo = async (token: string) => (await push.sent()).filter((message) => message.to === token);

describe('event notification worker (worker/events/notifications/run.ts)', () => {
  it('sends one push per rider per change, however many reasons, with category events and the event link', async () => {
    await push.script({});
    const event = eventDoc({ approvalStatus: 'approved', title: 'Bowl Jam' });
    await insertEvents(api, [event]);
    const { both, only } = await api.db(async (db) => {
      const both = await rider(db);
      const only = await rider(db);
      const now = new Date();
      await db
        .collection('event_saves')
        .insertOne({ userId: both.userId.toHexString(), eventId: event._id.toHexString(), createdAt: now });
      await db.collection('eventRelationships').insertMany([
        { userId: both.userId, eventId: event._id, relationship: 'going', createdAt: now, updatedAt: now },
        { userId: only.userId, eventId: event._id, relationship: 'watching_online', createdAt: now, updatedAt: now },
      ]);
      await moveStart(db, event);
      return { both, only };
    });
    await runWorker();
    await runWorker();
    for (const { token } of [both, only]) {
      const messages = await sentTo(token);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        title: 'Bowl Jam',
        channelId: 'events',
        data: {
          category: 'events',
          kind: 'change',
          url: `/events/${event.slug}`,
          eventId: String(event._id),
          fields: 'startAt',
        },
      });
      expect(messages[0]!.body).toMatch(/^Now starts /);
    }
    const jobs = await api.db((db) => db.collection('eventNotificationJobs').find({ eventId: event._id }).toArray());
    expect(jobs.map((job) => job.status)).toEqual(['sent', 'sent']);
  });

  it('never sends a job twice when two runs overlap', async () => {
    await push.script({});
    const event = eventDoc({ approvalStatus: 'approved' });
    await insertEvents(api, [event]);
    const riders = await api.db(async (db) => {
      const riders = [];
      for (let i = 0; i < 30; i++) riders.push(await rider(db));
      const now = new Date();
      await db.collection('eventRelationships').insertMany(
        riders.map((r) => ({
          userId: r.userId,
          eventId: event._id,
          relationship: 'interested',
          createdAt: now,
          updatedAt: now,
        })),
      );
      await moveStart(db, event);
      return riders;
    });
    await Promise.all([runWorker(), runWorker(), runWorker()]);
    const sent = await push.sent();
    for (const { token } of riders) expect(sent.filter((message) => message.to === token)).toHaveLength(1);
  });

  it('holds a change back during quiet hours and drops it when the rider turned events off', async () => {
    await push.script({});
    const event = eventDoc({ approvalStatus: 'approved' });
    await insertEvents(api, [event]);
    const { quiet, off } = await api.db(async (db) => {
      const quiet = await rider(db, { quietHours: { start: '00:00', end: '23:59', timezone: 'UTC' } });
      const off = await rider(db, { events: { push: false } });
      const now = new Date();
      await db.collection('eventRelationships').insertMany(
        [quiet, off].map((r) => ({
          userId: r.userId,
          eventId: event._id,
          relationship: 'going',
          createdAt: now,
          updatedAt: now,
        })),
      );
      await moveStart(db, event);
      return { quiet, off };
    });
    // 23:59 to 00:00 UTC is the one minute this rider's quiet hours leave open.
    const inQuiet = new Date();
    if (inQuiet.toISOString().slice(11, 16) === '23:59') inQuiet.setUTCMinutes(58);
    await push.withStore((store) => runEventNotifications(store, api.env, inQuiet));
    expect(await sentTo(quiet.token)).toEqual([]);
    expect(await sentTo(off.token)).toEqual([]);
    const jobs = await api.db((db) => db.collection('eventNotificationJobs').find({ eventId: event._id }).toArray());
    const quietJob = jobs.find((job) => job.userId.equals(quiet.userId))!;
    expect(quietJob).toMatchObject({ status: 'pending', outcomeReason: 'quiet-hours' });
    expect(quietJob.dueAt.getTime()).toBeGreaterThan(inQuiet.getTime());
    expect(jobs.find((job) => job.userId.equals(off.userId))).toMatchObject({
      status: 'skipped',
      outcomeReason: 'category-off',
    });
  });
});

describe('subscription digests', () => {
  it('sends at most one digest per subscription per rolling 24 hours, gathering what matched meanwhile', async () => {
    await push.script({});
    const subscriber = await api.db((db) => rider(db));
    const now = new Date();
    const criteria = {
      sports: ['bmx'],
      disciplines: [],
      eventKinds: [],
      intents: [],
      level: [],
      place: null,
      organizerId: null,
    };
    const subscription = {
      _id: new ObjectId(),
      userId: subscriber.userId,
      name: 'BMX near me',
      ...criteria,
      matchKeys: subscriptionKeys(criteria),
      lastDigestAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const [first, second, third] = [1, 2, 3].map((n) =>
      eventDoc({ approvalStatus: 'approved', sports: ['bmx'], title: `BMX Jam ${n}` }),
    );
    await insertEvents(api, [first!, second!, third!]);
    await api.db((db) => db.collection('eventSubscriptions').insertOne(subscription));
    const publish = (event: typeof first) =>
      push.withStore((store) => onEventPublished(store, event as unknown as EventDoc));
    const run = (at: Date) => push.withStore((store) => runEventNotifications(store, api.env, at));

    await publish(first);
    const t0 = new Date();
    await Promise.all([run(t0), run(t0)]);
    let messages = await sentTo(subscriber.token);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      title: 'BMX near me',
      data: { category: 'events', kind: 'digest', url: `/events/${first!.slug}`, eventCount: 1 },
    });

    // Two more within the day wait for the window, then go out together in one digest.
    await publish(second);
    await publish(third);
    await run(new Date(t0.getTime() + HOUR));
    expect(await sentTo(subscriber.token)).toHaveLength(1);
    await run(new Date(t0.getTime() + 24 * HOUR + 60_000));
    messages = await sentTo(subscriber.token);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({
      data: { kind: 'digest', eventCount: 2, url: `/event-subscriptions/${subscription._id}` },
    });
    expect(String(messages[1]!.data.eventIds).split(',').sort()).toEqual([second!._id, third!._id].map(String).sort());
  });
});
