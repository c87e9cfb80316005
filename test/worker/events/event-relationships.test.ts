import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { eventDoc, insertEvents } from '../../support/events';
import { createApi } from '../../support/worker-api';

// A rider's relationship to an event.

const api = createApi('event-relationships');

describeAccessChecks(api, [
  { method: 'PATCH', path: '/api/events/:id/relationship', check: 'auth' },
  { method: 'GET', path: '/api/users/me/events', check: 'auth' },
]);

const relate = (as: TestAccount, id: string, relationship: string) =>
  call(api, 'PATCH', `/api/events/${id}/relationship`, { as, json: { relationship } });

async function newEvent(fields: Record<string, unknown> = {}) {
  const doc = eventDoc(fields);
  await insertEvents(api, [doc]);
  return doc._id.toHexString();
}

const ZERO = { interested: 0, going: 0, competing: 0, watching_online: 0 };

/** The stored counts; a Live record gets only the counters a change touched. */
const countsOf = (id: string) =>
  api.db(async (db) => ({
    ...ZERO,
    ...(await db.collection('events').findOne({ _id: new ObjectId(id) }))?.relationshipCounts,
  }));

describe('PATCH /api/events/:id/relationship', () => {
  it('sets one relationship per rider, replaces it, removes it with none, and answers the counts', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const id = await newEvent();
    expect(await (await relate(rider, id, 'interested')).json()).toEqual({
      relationship: 'interested',
      relationshipCounts: { interested: 1, going: 0, competing: 0, watching_online: 0 },
    });
    await relate(other, id, 'interested');
    const going = await (await relate(rider, id, 'going')).json<{ relationshipCounts: object }>();
    expect(going.relationshipCounts).toEqual({ interested: 1, going: 1, competing: 0, watching_online: 0 });
    const none = await (await relate(rider, id, 'none')).json<{ relationshipCounts: object }>();
    expect(none.relationshipCounts).toEqual({ interested: 1, going: 0, competing: 0, watching_online: 0 });
    // Repeating none changes nothing.
    expect((await (await relate(rider, id, 'none')).json<{ relationshipCounts: object }>()).relationshipCounts).toEqual(
      none.relationshipCounts,
    );
  });

  it('keeps the counts exact under 20 parallel changes: 20 riders at once, and one rider changing 20 times at once', async () => {
    const id = await newEvent();
    const riders = await Promise.all(Array.from({ length: 20 }, () => register(api)));
    const answers = await Promise.all(riders.map((rider) => relate(rider, id, 'going')));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect(await countsOf(id)).toEqual({ ...ZERO, going: 20 });

    const solo = await register(api);
    const lone = await newEvent();
    const choices = ['interested', 'going', 'competing', 'watching_online', 'none'];
    await Promise.all(Array.from({ length: 20 }, (_, i) => relate(solo, lone, choices[i % choices.length]!)));
    const rows = await api.db((db) =>
      db
        .collection('eventRelationships')
        .find({ eventId: new ObjectId(lone) })
        .toArray(),
    );
    expect(rows.length).toBeLessThanOrEqual(1);
    // Whatever change landed last, the counts hold exactly the one relationship left (or none).
    expect(await countsOf(lone)).toEqual({ ...ZERO, ...(rows[0] ? { [rows[0].relationship]: 1 } : {}) });
  });

  it('answers 404 for an unknown or unpublished event, and 400 naming a bad relationship', async () => {
    const rider = await register(api);
    expect((await relate(rider, '0123456789abcdef01234567', 'going')).status).toBe(404);
    const pending = await newEvent({ approvalStatus: 'pending' });
    expect((await relate(rider, pending, 'going')).status).toBe(404);
    const res = await relate(rider, await newEvent(), 'maybe');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('relationship');
  });
});

describe('GET /api/users/me/events', () => {
  it('pages your events by relationship, newest change first, in the target shape', async () => {
    const rider = await register(api);
    const [a, b, c] = [await newEvent(), await newEvent(), await newEvent()];
    await relate(rider, a, 'going');
    await relate(rider, b, 'interested');
    await relate(rider, c, 'going');
    const pages = await everyPage<{ relationship: string; event: { _id: string; relationshipCounts: object } }>(
      api,
      '/api/users/me/events?relationship=going',
      1,
      rider,
    );
    expect(pages.map((page) => page.map((item) => item.event._id))).toEqual([[c], [a]]);
    expect(pages[0]![0]).toMatchObject({ relationship: 'going', event: { relationshipCounts: { going: 1 } } });
    const all = await everyPage<{ event: { _id: string } }>(api, '/api/users/me/events', 10, rider);
    expect(all.flat().map((item) => item.event._id)).toEqual([c, b, a]);
  });
});
