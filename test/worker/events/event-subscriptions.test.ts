import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { EventDoc } from '../../../worker/events/documents';
import { onEventPublished } from '../../../worker/events/subscriptions/match';
import { createStore } from '../../../worker/platform/db/store';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, refusedFields } from '../../support/content';
import { eventDoc, insertEvents } from '../../support/events';
import { createApi } from '../../support/worker-api';

// Event subscriptions: the CRUD routes, their validation and limit, and matching
// through what the routes stored (by sport and by distance).

const api = createApi('event-subscriptions', {}, { indexes: true });
const PATH = '/api/event-subscriptions';

describeAccessChecks(api, [
  { method: 'GET', path: PATH, check: 'auth' },
  { method: 'POST', path: PATH, check: 'auth', json: { sports: ['bmx'] } },
  { method: 'PATCH', path: `${PATH}/:id`, check: 'auth', json: { sports: ['bmx'] } },
  { method: 'DELETE', path: `${PATH}/:id`, check: 'auth' },
]);

const create = (as: TestAccount, json: unknown) => call(api, 'POST', PATH, { as, json });
type Sub = { _id: string; [key: string]: unknown };

describe('POST/GET/PATCH/DELETE /api/event-subscriptions', () => {
  it('creates, lists, changes and deletes a subscription; another rider cannot see or touch it', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const res = await create(rider, {
      name: 'Bowls near Austin',
      sports: ['skateboarding', 'skateboarding'],
      disciplines: [' Bowl '],
      place: { lat: 30.27, lng: -97.74, radiusKm: 50, label: 'Austin' },
    });
    expect(res.status).toBe(201);
    const sub = await res.json<Sub>();
    expect(sub).toMatchObject({
      name: 'Bowls near Austin',
      sports: ['skateboarding'],
      disciplines: ['bowl'],
      eventKinds: [],
      place: { lat: 30.27, lng: -97.74, radiusKm: 50, label: 'Austin' },
      organizerId: null,
      lastDigestAt: null,
    });
    const listed = await (await call(api, 'GET', PATH, { as: rider })).json<{ items: Sub[] }>();
    expect(listed.items.map((s) => s._id)).toEqual([sub._id]);
    expect((await (await call(api, 'GET', PATH, { as: other })).json<{ items: Sub[] }>()).items).toEqual([]);
    expect((await call(api, 'GET', `${PATH}/${sub._id}`, { as: other })).status).toBe(404);
    expect((await call(api, 'PATCH', `${PATH}/${sub._id}`, { as: other, json: { name: 'x' } })).status).toBe(404);

    const changed = await call(api, 'PATCH', `${PATH}/${sub._id}`, {
      as: rider,
      json: { place: null, intents: ['compete'] },
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      place: null,
      intents: ['compete'],
      sports: ['skateboarding'],
      name: 'Bowls near Austin',
    });
    const emptied = await call(api, 'PATCH', `${PATH}/${sub._id}`, {
      as: rider,
      json: { sports: [], disciplines: [], intents: [] },
    });
    expect(emptied.status).toBe(400);
    expect(await refusedFields(emptied)).toEqual(['criteria']);

    expect((await call(api, 'DELETE', `${PATH}/${sub._id}`, { as: other })).status).toBe(404);
    const deleted = await call(api, 'DELETE', `${PATH}/${sub._id}`, { as: rider });
    expect(await deleted.json()).toEqual({ deleted: true, id: sub._id });
    expect((await call(api, 'GET', `${PATH}/${sub._id}`, { as: rider })).status).toBe(404);
  });

  it('refuses bad fields with a 400 naming each, and a subscription with no criterion', async () => {
    const rider = await register(api);
    const res = await create(rider, {
      sports: ['curling'],
      intents: ['sleep'],
      place: { lat: 91, lng: 0, radiusKm: 5000 },
      organizerId: 'nope',
      colour: 'red',
    });
    expect(res.status).toBe(400);
    const fields = await refusedFields(res);
    for (const field of ['sports.0', 'intents.0', 'place.lat', 'place.radiusKm', 'organizerId'])
      expect(fields).toContain(field);
    expect(JSON.stringify(await (await create(rider, { colour: 'red' })).json())).toContain('colour');
    const empty = await create(rider, { name: 'Everything' });
    expect(empty.status).toBe(400);
    expect(await refusedFields(empty)).toEqual(['criteria']);
    const unknownOrganizer = await create(rider, { organizerId: new ObjectId().toHexString() });
    expect(unknownOrganizer.status).toBe(400);
    expect(await refusedFields(unknownOrganizer)).toEqual(['organizerId']);
  });

  it(`holds at most ${LIMITS.eventNotifications.subscriptionsPerUser} per rider, even when created at once`, async () => {
    const rider = await register(api);
    const max = LIMITS.eventNotifications.subscriptionsPerUser;
    const answers = await Promise.all(
      Array.from({ length: max + 5 }, () => create(rider, { sports: ['bmx'] }).then((r) => r.status)),
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(max);
    expect(answers.filter((s) => s === 409)).toHaveLength(5);
    const listed = await (await call(api, 'GET', `${PATH}?limit=50`, { as: rider })).json<{ items: Sub[] }>();
    await call(api, 'DELETE', `${PATH}/${listed.items[0]!._id}`, { as: rider });
    expect((await create(rider, { sports: ['bmx'] })).status).toBe(201);
  });
});

describe('matching what the routes stored', () => {
  it('by sport and by distance: only the subscriptions the event matches get a digest', async () => {
    const riders = await Promise.all([1, 2, 3, 4].map(() => register(api)));
    const subs = await Promise.all(
      [
        { sports: ['wakeboarding'] },
        { sports: ['snowboarding'] },
        { sports: ['wakeboarding'], place: { lat: 29.42, lng: -98.49, radiusKm: 150 } },
        { place: { lat: 29.42, lng: -98.49, radiusKm: 100 } },
      ].map(async (json, i) => (await (await create(riders[i]!, json)).json<Sub>())._id),
    );
    // Austin: 118 km from San Antonio.
    const event = eventDoc({ approvalStatus: 'approved', sports: ['wakeboarding'] });
    await insertEvents(api, [event]);
    const matched = await api.db((db) =>
      onEventPublished(
        createStore(() => db),
        event as unknown as EventDoc,
      ),
    );
    expect(matched).toEqual({ matched: 2 });
    const digests = await api.db((db) =>
      db
        .collection('eventNotificationJobs')
        .find({ kind: 'digest', subscriptionId: { $in: subs.map((id) => new ObjectId(id)) } })
        .toArray(),
    );
    expect(digests.map((d) => d.subscriptionId.toHexString()).sort()).toEqual([subs[0], subs[2]].sort());
  });
});
