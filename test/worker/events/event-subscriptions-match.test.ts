import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { EventDoc, EventSubscriptionDoc } from '../../../worker/events/documents';
import { onEventPublished } from '../../../worker/events/subscriptions/match';
import { subscriptionKeys } from '../../../worker/events/subscriptions/match-keys';
import { createStore } from '../../../worker/platform/db/store';
import { eventDoc, insertEvents } from '../../support/events';
import { ingestionTestbed } from '../../support/ingestion';
import { createApi } from '../../support/worker-api';

// Matching a newly published event against subscriptions: by sport and by distance,
// one open digest per subscription however many events match.

const api = createApi('event-subscriptions-match', {}, { indexes: true });
const withStore = <T>(fn: (store: ReturnType<typeof createStore>, db: Db) => Promise<T>) =>
  api.db((db) =>
    fn(
      createStore(() => db),
      db,
    ),
  );

type Criteria = Partial<Pick<EventSubscriptionDoc, 'sports' | 'place' | 'intents' | 'organizerId'>>;
function subscription(criteria: Criteria): EventSubscriptionDoc {
  const now = new Date();
  const sub = {
    _id: new ObjectId(),
    userId: new ObjectId(),
    name: null,
    sports: [],
    disciplines: [],
    eventKinds: [],
    intents: [],
    level: [],
    place: null,
    organizerId: null,
    lastDigestAt: null,
    createdAt: now,
    updatedAt: now,
    ...criteria,
  };
  return { ...sub, matchKeys: subscriptionKeys(sub) };
}
const near = (lat: number, lng: number, radiusKm: number) => ({
  location: { type: 'Point' as const, coordinates: [lng, lat] as [number, number] },
  radiusKm,
  label: null,
});
const digestsOf = (db: Db, subs: EventSubscriptionDoc[]) =>
  db
    .collection('eventNotificationJobs')
    .find({ kind: 'digest', subscriptionId: { $in: subs.map((s) => s._id) } })
    .toArray();

describe('onEventPublished (worker/events/subscriptions/match.ts)', () => {
  it('matches by sport and by distance, and one digest per subscription gathers every matching event', async () => {
    const skate = subscription({ sports: ['skateboarding'] });
    const bmx = subscription({ sports: ['bmx'] });
    const sanAntonio150 = subscription({ place: near(29.42, -98.49, 150) });
    const sanAntonio50 = subscription({ place: near(29.42, -98.49, 50) });
    const skateNearDallas = subscription({ sports: ['skateboarding'], place: near(32.78, -96.8, 100) });
    const all = [skate, bmx, sanAntonio150, sanAntonio50, skateNearDallas];
    // Austin: 118 km from San Antonio, 300 km from Dallas.
    const austin = eventDoc({ approvalStatus: 'approved', sports: ['skateboarding'] });
    const second = eventDoc({ approvalStatus: 'approved', sports: ['skateboarding'] });
    const pending = eventDoc({ approvalStatus: 'pending', sports: ['bmx'] });
    await insertEvents(api, [austin, second, pending]);
    await withStore(async (store, db) => {
      await db.collection('eventSubscriptions').insertMany(all);
      expect(await onEventPublished(store, austin as unknown as EventDoc)).toEqual({ matched: 2 });
      expect(await onEventPublished(store, austin as unknown as EventDoc)).toEqual({ matched: 2 });
      expect(await onEventPublished(store, second as unknown as EventDoc)).toEqual({ matched: 2 });
      expect(await onEventPublished(store, pending as unknown as EventDoc)).toEqual({ matched: 0 });
      const digests = await digestsOf(db, all);
      expect(digests.map((d) => d.subscriptionId.toHexString()).sort()).toEqual(
        [skate._id, sanAntonio150._id].map(String).sort(),
      );
      for (const digest of digests) {
        expect(digest).toMatchObject({
          status: 'pending',
          userId: all.find((s) => s._id.equals(digest.subscriptionId))!.userId,
        });
        expect(digest.eventIds.map(String).sort()).toEqual([austin._id, second._id].map(String).sort());
      }
    });
  });

  it('ingestion matches each newly inserted approved event, and one a second source files under the sport', async () => {
    const bed = ingestionTestbed('event-subscriptions-ingest');
    const anySkate = subscription({ sports: ['skateboarding'] });
    await bed.api.db((db) => db.collection('eventSubscriptions').insertOne(anySkate));
    await bed.runCron();
    const skateEvents = (await bed.events()).filter(
      (event) => event.sports?.includes('skateboarding') && event.approvalStatus === 'approved',
    );
    expect(skateEvents.length).toBeGreaterThan(0);
    const [digest] = await bed.api.db((db) => digestsOf(db, [anySkate]));
    expect(digest!.eventIds.map(String).sort()).toEqual(skateEvents.map((event) => String(event._id)).sort());
  });
});
