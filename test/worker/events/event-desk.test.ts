import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { subscriptionKeys } from '../../../worker/events/subscriptions/match-keys';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, refusedFields } from '../../support/content';
import { DAY_MS, eventDoc, insertEvents, listedIds, uniqueTitle } from '../../support/events';
import { createApi } from '../../support/worker-api';

// The admin desk: review, duplicates and merge, edit, stale, sources.

const api = createApi('event-desk');

describeAccessChecks(api, [
  { method: 'GET', path: '/api/admin/event-sources', check: 'admin' },
  { method: 'GET', path: '/api/admin/events', check: 'admin' },
  { method: 'POST', path: '/api/admin/events/:id/review', check: 'admin', json: { decision: 'approve' } },
  { method: 'GET', path: '/api/admin/events/duplicates', check: 'admin' },
  { method: 'DELETE', path: '/api/admin/events/:id/possible-duplicates', check: 'admin' },
  { method: 'POST', path: '/api/admin/events/:id/merge', check: 'admin', json: { intoId: '0123456789abcdef01234567' } },
  { method: 'PATCH', path: '/api/admin/events/:id', check: 'admin', json: { title: 'New title' } },
  { method: 'POST', path: '/api/admin/events/:id/verify', check: 'admin' },
  { method: 'GET', path: '/api/admin/events/stale', check: 'admin' },
]);

const day = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

async function submit(as: TestAccount, fields: Record<string, unknown> = {}) {
  const res = await call(api, 'POST', '/api/events/submit', {
    as,
    json: {
      title: uniqueTitle('Desk Jam'),
      sports: ['bmx'],
      startLocal: `${day(4)}T11:00`,
      timezone: 'Europe/London',
      venue: { name: 'Southbank', city: 'London', country: 'GB', lat: 51.507, lng: -0.117 },
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return res.json<{ _id: string; slug: string; possibleDuplicateOf: string[] }>();
}

const review = (as: TestAccount, id: string, decision: string, reason?: string) =>
  call(api, 'POST', `/api/admin/events/${id}/review`, { as, json: { decision, ...(reason ? { reason } : {}) } });

describe('submit → review', () => {
  it('lists a submission in the queue, keeps it out of public view until approved, then publishes it', async () => {
    const [rider, admin] = [await register(api), await registerAdmin(api)];
    const submitted = await submit(rider);
    const queue = await (
      await call(api, 'GET', '/api/admin/events?approvalStatus=pending&limit=100', { as: admin })
    ).json<{
      items: { _id: string; submittedBy: string; approvalStatus: string }[];
    }>();
    expect(queue.items.find((item) => item._id === submitted._id)).toMatchObject({
      submittedBy: rider._id,
      approvalStatus: 'pending',
    });
    expect(await listedIds(api)).not.toContain(submitted._id);

    const approved = await review(admin, submitted._id, 'approve');
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      approvalStatus: 'approved',
      review: { decision: 'approve', reason: null, by: admin._id },
    });
    expect(await listedIds(api)).toContain(submitted._id);
    expect((await call(api, 'GET', `/api/events/${submitted.slug}`)).status).toBe(200);
    const after = await (await call(api, 'GET', '/api/admin/events?limit=100', { as: admin })).json<{
      items: { _id: string }[];
    }>();
    expect(after.items.map((item) => item._id)).not.toContain(submitted._id);
    // Repeating the decision changes nothing.
    expect((await review(admin, submitted._id, 'approve')).status).toBe(200);

    // Rejecting unpublishes, with the reason kept.
    const rejected = await review(admin, submitted._id, 'reject', 'not a real event');
    expect(await rejected.json()).toMatchObject({ approvalStatus: 'rejected', review: { reason: 'not a real event' } });
    expect((await call(api, 'GET', `/api/events/${submitted._id}`)).status).toBe(404);
  });

  it('notifies subscribers of a matching filter when a submission is approved, once however often it is approved', async () => {
    const [rider, admin] = [await register(api), await registerAdmin(api)];
    const now = new Date();
    const criteria = {
      _id: new ObjectId(),
      userId: new ObjectId(),
      name: null,
      sports: ['wakeboarding'],
      disciplines: [],
      eventKinds: [],
      intents: [],
      level: [],
      place: null,
      organizerId: null,
      lastDigestAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const sub = { ...criteria, matchKeys: subscriptionKeys(criteria as never) };
    await api.db((db) => db.collection('eventSubscriptions').insertOne(sub));
    const submitted = await submit(rider, { sports: ['wakeboarding'] });
    const digests = () =>
      api.db((db) =>
        db.collection('eventNotificationJobs').find({ kind: 'digest', subscriptionId: sub._id }).toArray(),
      );
    expect(await digests()).toEqual([]);
    await review(admin, submitted._id, 'approve');
    await review(admin, submitted._id, 'approve');
    const jobs = await digests();
    expect(jobs).toHaveLength(1);
    expect(JSON.stringify(jobs[0])).toContain(submitted._id);
  });

  it('answers 404 for an unknown event and 400 naming a bad decision', async () => {
    const admin = await registerAdmin(api);
    expect((await review(admin, new ObjectId().toHexString(), 'approve')).status).toBe(404);
    expect(await refusedFields(await review(admin, new ObjectId().toHexString(), 'maybe'))).toEqual(['decision']);
  });
});

describe('duplicates and merge', () => {
  it('lists a look-alike with its candidate; merging moves listings, saves and relationships without duplicates and keeps the old slug resolving', async () => {
    const [admin, both, onlyOld, onlyNew] = [
      await registerAdmin(api),
      await register(api),
      await register(api),
      await register(api),
    ];
    const startAt = new Date(`${day(6)}T12:00:00.000Z`);
    const ref = (sourceId: string, externalId: string) => ({
      sourceId,
      externalId,
      url: null,
      sourceUpdatedAt: null,
      fetchedAt: new Date(),
      payloadHash: `${sourceId}-${externalId}`,
    });
    const survivor = eventDoc({
      title: 'London Bowl Bash',
      startAt,
      venue: { name: 'Southbank', city: 'London' },
      approvalStatus: 'approved',
      sourceRefs: [ref('source-one', 'a1')],
      relationshipCounts: { interested: 0, going: 0, competing: 0, watching_online: 0 },
    });
    const other = eventDoc({
      title: 'London Bowl Bash 2031',
      startAt,
      venue: { name: 'Southbank', city: 'London' },
      approvalStatus: 'approved',
      sourceRefs: [ref('source-one', 'a1'), ref('source-two', 'b7')],
      possibleDuplicateOf: [survivor._id],
      relationshipCounts: { interested: 0, going: 0, competing: 0, watching_online: 0 },
    });
    await insertEvents(api, [survivor, other]);
    const [survivorId, otherId] = [survivor._id.toHexString(), other._id.toHexString()];

    for (const rider of [both, onlyOld]) {
      expect((await call(api, 'POST', `/api/events/${otherId}/save`, { as: rider })).status).toBeLessThan(300);
    }
    for (const rider of [both, onlyNew]) {
      expect((await call(api, 'POST', `/api/events/${survivorId}/save`, { as: rider })).status).toBeLessThan(300);
    }
    await call(api, 'PATCH', `/api/events/${otherId}/relationship`, { as: both, json: { relationship: 'going' } });
    await call(api, 'PATCH', `/api/events/${otherId}/relationship`, {
      as: onlyOld,
      json: { relationship: 'competing' },
    });
    await call(api, 'PATCH', `/api/events/${survivorId}/relationship`, {
      as: both,
      json: { relationship: 'interested' },
    });

    const dups = await (await call(api, 'GET', '/api/admin/events/duplicates?limit=100', { as: admin })).json<{
      items: { event: { _id: string }; candidates: { _id: string }[] }[];
    }>();
    expect(dups.items.find((item) => item.event._id === otherId)?.candidates.map((c) => c._id)).toEqual([survivorId]);

    const merged = await call(api, 'POST', `/api/admin/events/${otherId}/merge`, {
      as: admin,
      json: { intoId: survivorId },
    });
    expect(merged.status).toBe(200);
    const body = await merged.json<Record<string, any>>();
    expect(body.moved).toEqual({ sourceRefs: 1, saves: 1, relationships: 1 });
    expect(body.event.sourceRefs.map((r: { externalId: string }) => r.externalId)).toEqual(['a1', 'b7']);
    // `both` keeps their own relationship to the survivor; onlyOld's moved.
    expect(body.event.relationshipCounts).toEqual({ interested: 1, going: 0, competing: 1, watching_online: 0 });

    const saves = await api.db((db) =>
      db
        .collection('event_saves')
        .find({ eventId: { $in: [survivorId, otherId] } })
        .toArray(),
    );
    expect(saves.map((s) => s.eventId)).toEqual([survivorId, survivorId, survivorId]);
    expect(new Set(saves.map((s) => s.userId))).toEqual(new Set([both._id, onlyOld._id, onlyNew._id]));
    const relationships = await api.db((db) =>
      db
        .collection('eventRelationships')
        .find({ eventId: { $in: [survivor._id, other._id] } })
        .toArray(),
    );
    expect(relationships.map((r) => [r.userId.toHexString(), r.eventId.toHexString(), r.relationship]).sort()).toEqual(
      [
        [both._id, survivorId, 'interested'],
        [onlyOld._id, survivorId, 'competing'],
      ].sort(),
    );

    // The old id and slug answer the survivor; the merged event is in no list.
    for (const key of [otherId, other.slug as string]) {
      const res = await call(api, 'GET', `/api/events/${key}`);
      expect(res.status).toBe(200);
      expect((await res.json<{ _id: string }>())._id).toBe(survivorId);
    }
    expect(await listedIds(api)).not.toContain(otherId);
    const after = await (await call(api, 'GET', '/api/admin/events/duplicates?limit=100', { as: admin })).json<{
      items: { event: { _id: string } }[];
    }>();
    expect(after.items.map((item) => item.event._id)).not.toContain(otherId);

    // Repeating the merge finishes nothing twice; merging into itself or into a merged event is refused.
    const again = await call(api, 'POST', `/api/admin/events/${otherId}/merge`, {
      as: admin,
      json: { intoId: survivorId },
    });
    expect((await again.json<{ moved: object }>()).moved).toEqual({ sourceRefs: 0, saves: 0, relationships: 0 });
    expect(
      (await call(api, 'POST', `/api/admin/events/${survivorId}/merge`, { as: admin, json: { intoId: survivorId } }))
        .status,
    ).toBe(400);
    expect(
      (await call(api, 'POST', `/api/admin/events/${survivorId}/merge`, { as: admin, json: { intoId: otherId } }))
        .status,
    ).toBe(409);
  });

  it('clears the candidates of an event that is not a duplicate', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const stored = eventDoc({
      title: 'Brighton Street Session',
      startAt: new Date(`${day(8)}T12:00:00.000Z`),
      venue: { city: 'Brighton' },
    });
    await insertEvents(api, [stored]);
    const submitted = await submit(rider, {
      title: 'Brighton Street Session',
      startLocal: `${day(8)}T10:00`,
      venue: { city: 'Brighton' },
    });
    expect(submitted.possibleDuplicateOf).toEqual([stored._id.toHexString()]);
    const res = await call(api, 'DELETE', `/api/admin/events/${submitted._id}/possible-duplicates`, { as: admin });
    expect((await res.json<{ possibleDuplicateOf: string[] }>()).possibleDuplicateOf).toEqual([]);
  });
});

describe('PATCH /api/admin/events/:id', () => {
  it('edits fields, reading local times in the given or stored zone, and refuses what it cannot read', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const submitted = await submit(rider);
    const res = await call(api, 'PATCH', `/api/admin/events/${submitted._id}`, {
      as: admin,
      json: {
        title: 'Renamed Jam',
        startLocal: '2031-07-01T09:30',
        venue: { city: 'Bristol', lat: 51.45, lng: -2.58 },
        participation: { registrationStatus: 'closed' },
      },
    });
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, any>>();
    expect(body).toMatchObject({
      title: 'Renamed Jam',
      startAt: '2031-07-01T08:30:00.000Z', // London summer time
      timezone: 'Europe/London',
      venue: { name: 'Southbank', city: 'Bristol', location: { type: 'Point', coordinates: [-2.58, 51.45] } },
      participation: { registrationStatus: 'closed' },
    });

    // An admin's time change of a published event is logged once with the admin as `by`, and reaches the riders who saved it.
    await review(admin, submitted._id, 'approve');
    const saver = await register(api);
    await call(api, 'POST', `/api/events/${submitted._id}/save`, { as: saver });
    const moved = await call(api, 'PATCH', `/api/admin/events/${submitted._id}`, {
      as: admin,
      json: { startLocal: '2031-07-02T09:30', status: 'cancelled' },
    });
    expect(moved.status).toBe(200);
    const eventId = new ObjectId(submitted._id);
    const log = await api.db((db) => db.collection('eventChangeLog').find({ eventId }).toArray());
    expect(log.map((row) => [row.field, row.by]).sort()).toEqual([
      ['startAt', admin._id],
      ['status', admin._id],
    ]);
    const jobs = await api.db((db) =>
      db.collection('eventNotificationJobs').find({ eventId, kind: 'change' }).toArray(),
    );
    expect(jobs.map((job) => job.userId.toHexString())).toEqual([saver._id]);
    // Live clients know `scheduled` and `completed` only: a cancelled event reads `completed` to them.
    const liveDetail = await call(api, 'GET', `/api/events/${submitted._id}`);
    expect((await liveDetail.json<{ status: string }>()).status).toBe('completed');
    const targetDetail = await call(api, 'GET', `/api/events/${submitted._id}?view=target`);
    expect((await targetDetail.json<{ status: string }>()).status).toBe('cancelled');

    const live = eventDoc();
    await insertEvents(api, [live]);
    const noZone = await call(api, 'PATCH', `/api/admin/events/${live._id.toHexString()}`, {
      as: admin,
      json: { startLocal: '2031-07-01T09:30' },
    });
    expect(await refusedFields(noZone)).toEqual(['timezone']);
    const bad = await call(api, 'PATCH', `/api/admin/events/${live._id.toHexString()}`, {
      as: admin,
      json: { sports: [], image: 'not a url', colour: 'red' },
    });
    expect(bad.status).toBe(400);
    expect((await refusedFields(bad)).length).toBeGreaterThanOrEqual(3);
    expect(
      (
        await call(api, 'PATCH', `/api/admin/events/${new ObjectId().toHexString()}`, {
          as: admin,
          json: { title: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('edits times given as instants with an offset and the venue as a GeoJSON point, and refuses both forms of one field', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const submitted = await submit(rider);
    const res = await call(api, 'PATCH', `/api/admin/events/${submitted._id}`, {
      as: admin,
      json: {
        startAt: '2031-07-01T09:30:00+01:00',
        venue: { location: { type: 'Point', coordinates: [-2.58, 51.45] } },
      },
    });
    expect(res.status).toBe(200);
    const doc = await api.db((db) => db.collection('events').findOne({ _id: new ObjectId(submitted._id) }));
    expect(doc?.startAt).toEqual(new Date('2031-07-01T08:30:00.000Z'));
    expect(doc?.venue).toMatchObject({
      name: 'Southbank',
      lat: 51.45,
      lng: -2.58,
      location: { type: 'Point', coordinates: [-2.58, 51.45] },
    });

    // An instant needs no zone: a Live record without one takes it.
    const live = eventDoc();
    await insertEvents(api, [live]);
    const zoneless = await call(api, 'PATCH', `/api/admin/events/${live._id.toHexString()}`, {
      as: admin,
      json: { startAt: '2031-07-01T08:30:00Z' },
    });
    expect(zoneless.status).toBe(200);

    const both = await call(api, 'PATCH', `/api/admin/events/${submitted._id}`, {
      as: admin,
      json: { startAt: '2031-07-01T09:30:00+01:00', startLocal: '2031-07-01T09:30' },
    });
    expect(both.status).toBe(400);
    expect((await refusedFields(both)).sort()).toEqual(['startAt', 'startLocal']);
    const twoPlaces = await call(api, 'PATCH', `/api/admin/events/${submitted._id}`, {
      as: admin,
      json: { venue: { lat: 51.45, lng: -2.58, location: { type: 'Point', coordinates: [-2.58, 51.45] } } },
    });
    expect((await refusedFields(twoPlaces)).sort()).toEqual(['venue.lat', 'venue.lng', 'venue.location']);
    const naive = await call(api, 'PATCH', `/api/admin/events/${submitted._id}`, {
      as: admin,
      json: { endAt: '2031-07-01T18:00:00' },
    });
    expect(await refusedFields(naive)).toEqual(['endAt']);
  });
});

describe('GET /api/admin/events/stale', () => {
  it('lists published, scheduled events past staleAfter, longest overdue first, until verified', async () => {
    const admin = await registerAdmin(api);
    const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
    const fresh = (staleAfter: Date, fields: Record<string, unknown> = {}) =>
      eventDoc({
        schemaVersion: 2,
        approvalStatus: 'approved',
        freshness: { lastVerifiedAt: ago(30), staleAfter, changedAt: null },
        ...fields,
      });
    const [older, newer, notYet, pending, completed] = [
      fresh(ago(5)),
      fresh(ago(1)),
      fresh(new Date(Date.now() + DAY_MS)),
      fresh(ago(9), { approvalStatus: 'pending' }),
      fresh(ago(9), { status: 'completed' }),
    ];
    await insertEvents(api, [older, newer, notYet, pending, completed]);
    const stale = async () =>
      (
        await (
          await call(api, 'GET', '/api/admin/events/stale?limit=100', { as: admin })
        ).json<{
          items: { _id: string }[];
          totalCount: number;
        }>()
      ).items.map((item) => item._id);
    const mine = [older, newer, notYet, pending, completed].map((e) => e._id.toHexString());
    expect((await stale()).filter((id) => mine.includes(id))).toEqual([
      older._id.toHexString(),
      newer._id.toHexString(),
    ]);

    const verified = await call(api, 'POST', `/api/admin/events/${older._id.toHexString()}/verify`, { as: admin });
    expect(verified.status).toBe(200);
    expect((await stale()).filter((id) => mine.includes(id))).toEqual([newer._id.toHexString()]);
  });
});

describe('GET /api/admin/event-sources', () => {
  it('answers every known source with its stored health', async () => {
    const admin = await registerAdmin(api);
    const at = new Date('2031-01-02T03:04:05.000Z');
    await api.db((db) =>
      db
        .collection<{ _id: string }>('eventSources')
        .updateOne(
          { _id: 'source-one' },
          { $set: { lastFailureAt: at, lastError: 'HTTP 502', consecutiveFailures: 2, totals: { failed: 2 } } },
          { upsert: true },
        ),
    );
    const body = await (await call(api, 'GET', '/api/admin/event-sources', { as: admin })).json<{
      sources: { name: string; consecutiveFailures: number; lastFailureAt: string | null }[];
    }>();
    expect(body.sources.length).toBeGreaterThanOrEqual(2);
    expect(body.sources.find((s) => s.name === 'source-one')).toMatchObject({
      consecutiveFailures: 2,
      lastFailureAt: at.toISOString(),
      lastError: 'HTTP 502',
    });
  });
});
