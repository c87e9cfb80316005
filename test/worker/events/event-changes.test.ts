import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { recordEventChanges } from '../../../worker/events/changes/record';
import type { EventDoc } from '../../../worker/events/documents';
import { createStore } from '../../../worker/platform/db/store';
import { eventDoc, insertEvents } from '../../support/events';
import { ingestionTestbed } from '../../support/ingestion';
import { createApi } from '../../support/worker-api';

// Change history that reaches riders: a time change by an admin (recordEventChanges
// called as the admin edit calls it) and by a source (through real ingestion), each logged once and
// queued once per rider however many reasons the rider has.

const api = createApi('event-changes', {}, { indexes: true });
const withStore = <T>(fn: (store: ReturnType<typeof createStore>, db: Db) => Promise<T>) =>
  api.db((db) =>
    fn(
      createStore(() => db),
      db,
    ),
  );

/** A rider who saved the event and holds a relationship to it, and one who only holds a relationship. */
async function audience(db: Db, eventId: ObjectId) {
  const both = new ObjectId();
  const related = new ObjectId();
  const now = new Date();
  await db
    .collection('event_saves')
    .insertOne({ userId: both.toHexString(), eventId: eventId.toHexString(), createdAt: now });
  await db.collection('eventRelationships').insertMany([
    { userId: both, eventId, relationship: 'going', createdAt: now, updatedAt: now },
    { userId: related, eventId, relationship: 'interested', createdAt: now, updatedAt: now },
  ]);
  return { both, related };
}

describe('recordEventChanges (worker/events/changes/record.ts)', () => {
  it('an admin moving the start time logs one row with the admin as by, and queues one job per rider', async () => {
    const event = eventDoc({
      approvalStatus: 'approved',
      freshness: { lastVerifiedAt: null, staleAfter: null, changedAt: null },
    });
    await insertEvents(api, [event]);
    const admin = new ObjectId().toHexString();
    const fields = await withStore(async (store, db) => {
      const { both, related } = await audience(db, event._id);
      const after = {
        ...event,
        startAt: new Date((event.startAt as Date).getTime() + 3_600_000),
        updatedAt: new Date(),
      };
      await db.collection('events').replaceOne({ _id: event._id }, after);
      const change = { before: event as Partial<EventDoc>, after: after as EventDoc, by: admin };
      const first = await recordEventChanges(store, change);
      // The same write recorded again (a retried request) adds nothing.
      expect(await recordEventChanges(store, change)).toEqual(first);
      const log = await db.collection('eventChangeLog').find({ eventId: event._id }).toArray();
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ field: 'startAt', before: event.startAt, after: after.startAt, by: admin });
      const jobs = await db.collection('eventNotificationJobs').find({ eventId: event._id }).toArray();
      expect(jobs.map((job) => job.userId.toHexString()).sort()).toEqual([both, related].map(String).sort());
      const bothJob = jobs.find((job) => job.userId.equals(both))!;
      expect(bothJob).toMatchObject({ kind: 'change', status: 'pending', fields: ['startAt'] });
      expect(bothJob.reasons.sort()).toEqual(['relationship', 'saved']);
      const stored = await db.collection('events').findOne({ _id: event._id });
      expect(stored!.freshness.changedAt).toBeInstanceOf(Date);
      return first;
    });
    expect(fields).toEqual(['startAt']);
  });

  it('logs nothing for an unpublished event or a change of nothing material, and refuses a rider as by', async () => {
    const pending = eventDoc({ approvalStatus: 'pending' });
    await insertEvents(api, [pending]);
    await withStore(async (store, db) => {
      const later = { ...pending, startAt: new Date() } as EventDoc;
      expect(await recordEventChanges(store, { before: pending, after: later, by: 'source:test' })).toEqual([]);
      const retitled = { ...pending, approvalStatus: 'approved', title: 'Renamed' } as EventDoc;
      expect(
        await recordEventChanges(store, {
          before: { ...pending, approvalStatus: 'approved' },
          after: retitled,
          by: 'source:test',
        }),
      ).toEqual([]);
      expect(await db.collection('eventChangeLog').countDocuments({ eventId: pending._id })).toBe(0);
      await expect(recordEventChanges(store, { before: pending, after: later, by: 'rider' })).rejects.toThrow(
        /by must be/,
      );
    });
  });
});

describe('a source changing a published event through ingestion', () => {
  it('is logged once with the source as by and queued once per rider, and a rerun adds nothing', async () => {
    const bed = ingestionTestbed('event-changes-source');
    await bed.runCron();
    const listed = (await bed.events()).find((event) => event.title === 'Spring Slam')!;
    // The stored copy says an hour earlier than the listing (an older listing): the next run moves it.
    const earlier = new Date(listed.startAt.getTime() - 3_600_000);
    const riders = await bed.api.db(async (db) => {
      await db
        .collection('events')
        .updateOne({ _id: listed._id }, { $set: { startAt: earlier, contentHash: 'older listing' } });
      return audience(db, listed._id);
    });
    await bed.runCron();
    await bed.runCron();
    const [log, jobs] = await bed.api.db((db) =>
      Promise.all([
        db.collection('eventChangeLog').find({ eventId: listed._id }).toArray(),
        db.collection('eventNotificationJobs').find({ eventId: listed._id }).toArray(),
      ]),
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      field: 'startAt',
      before: earlier,
      after: listed.startAt,
      by: `source:${listed.source}`,
    });
    expect(jobs.map((job) => job.userId.toHexString()).sort()).toEqual(
      [riders.both, riders.related].map(String).sort(),
    );
    // Three ingestion runs of both sources: more than the default 20 s on a busy machine.
  }, 90_000);
});
