import { ObjectId } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { migrateEvents } from '../../../worker/events/catalog/migration';
import golden from '../../fixtures/events-live-pin.json';
import { call } from '../../support/content';
import { liveFixture, PINNED_PATHS } from '../../support/events-fixture';
import { createApi } from '../../support/worker-api';

// Existing clients see exactly what they saw before the target model: the Live list's
// fields, values, offset cursor and page size, and the detail, pinned on a fixed set of records.

const api = createApi('events-live-pin');

async function answers(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of [...PINNED_PATHS, `/api/events/${liveFixture()[0]!.slug}`]) {
    const res = await call(api, 'GET', path);
    out[path] = { status: res.status, body: await res.json() };
  }
  return out;
}

const stored = () => api.db((db) => db.collection('events').find().sort({ _id: 1 }).toArray());

beforeEach(() => api.db((db) => db.collection('events').deleteMany({})));

describe('the Live list and detail, pinned', () => {
  it('answer the recorded responses on the fixture set (page size 20, offset cursor "20")', async () => {
    await api.db((db) => db.collection('events').insertMany(liveFixture()));
    const got = await answers();
    if (Object.keys(golden).length === 0) console.log(`PIN_GOLDEN${JSON.stringify(got)}PIN_GOLDEN`);
    expect(got).toEqual(golden);
  });
});

describe('npm run migrate:events (worker/events/catalog/migration.ts)', () => {
  it('stopped half-way, resumed, then run again: every event in the target shape, the same result, Live answers unchanged', async () => {
    await api.db((db) => db.collection('events').insertMany(liveFixture()));
    const half = await api.db((db) => migrateEvents(db, { batchSize: 7, stopAfter: 2 }));
    expect(half).toMatchObject({ done: false, migrated: 14 });
    expect(await answers()).toEqual(golden);
    const rest = await api.db((db) => migrateEvents(db, { batchSize: 7 }));
    expect(rest).toMatchObject({ done: true, migrated: 11 });
    const once = await stored();
    expect(once.every((doc) => doc.schemaVersion === 2 && doc.approvalStatus === 'approved')).toBe(true);
    const invite = once.find((doc) => doc.title === 'Bowl Invitational 3')!;
    expect(invite).toMatchObject({ level: [], participation: { inviteOnly: true } });
    expect(once[0]!.venue.location).toEqual({ type: 'Point', coordinates: [-97.74, 30.27] });
    const again = await api.db((db) => migrateEvents(db, { batchSize: 7 }));
    expect(again).toMatchObject({ done: true, migrated: 0 });
    expect(await stored()).toEqual(once);
    expect(await answers()).toEqual(golden);
  });

  it('folds saves written under the target name into event_saves: none lost, none doubled, twice over', async () => {
    const userId = new ObjectId().toHexString();
    const [a, b] = [new ObjectId().toHexString(), new ObjectId().toHexString()];
    const at = new Date('2030-05-05T00:00:00Z');
    await api.db(async (db) => {
      await db.collection('event_saves').insertOne({ userId, eventId: a, createdAt: at });
      await db.collection('eventSaves').insertMany([
        { userId, eventId: a, createdAt: new Date() },
        { userId, eventId: b, createdAt: at },
      ]);
    });
    await api.db((db) => migrateEvents(db));
    await api.db((db) => migrateEvents(db));
    const saves = await api.db((db) =>
      db
        .collection('event_saves')
        .find({ userId }, { projection: { _id: 0 } })
        .sort({ eventId: 1 })
        .toArray(),
    );
    expect(saves).toEqual([a, b].sort().map((eventId) => ({ userId, eventId, createdAt: at })));
    expect(await api.db((db) => db.collection('eventSaves').countDocuments())).toBe(0);
  });
});
