import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_EVENTS, type AnalyticsEventName, COUNTED_FROM } from '../../../worker/growth/analytics/taxonomy';
import { registerThroughRoute, type TestAccount } from '../../support/accounts';
import { chat } from '../../support/companion';
import { call } from '../../support/content';
import { eventDoc, insertEvents } from '../../support/events';
import { newPost, newSpot } from '../../support/feed';
import { createList as createSpotList, call as spotListCall } from '../../support/spot-lists';
import { as, riderWithTrick } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

const api = createApi('analytics-server-events');

/** The server's analytics events of a rider, oldest first. */
const serverEvents = (rider: TestAccount, name?: string) =>
  api.db((db) =>
    db
      .collection('analytics_events')
      .find({ userId: new ObjectId(rider._id), platform: 'server', ...(name ? { name } : {}) })
      .sort({ _id: 1 })
      .toArray(),
  );

/** Each recorded event passes its own name's property schema, as a client's would have to. */
async function expectValidServerEvents(rider: TestAccount) {
  for (const event of await serverEvents(rider)) {
    const name = event.name as AnalyticsEventName;
    expect(COUNTED_FROM[name], name).toBe('server');
    expect(ANALYTICS_EVENTS[name].properties.safeParse(event.properties).success, name).toBe(true);
    expect(event).toMatchObject({ schemaVersion: 1, anonymousId: null, eventId: expect.any(String) });
  }
}

describe('server-side analytics events', () => {
  it('sign-up records signup_completed with the method', async () => {
    const rider = await registerThroughRoute(api);
    expect((await serverEvents(rider, 'signup_completed')).map((event) => event.properties)).toEqual([
      { method: 'password' },
    ]);
    await expectValidServerEvents(rider);
  });

  it('adding a trick, logging attempts and landing it record trick_added, trick_attempt_logged and trick_landed once', async () => {
    const { rider, listId, trick, path } = await riderWithTrick(api);
    for (let i = 0; i < 2; i += 1) {
      expect((await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) })).status).toBe(200);
    }
    // A second landing changes nothing, so it records nothing either.
    for (let i = 0; i < 2; i += 1) {
      expect((await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) })).status).toBe(200);
    }
    const events = (await serverEvents(rider)).filter((event) => event.name.startsWith('trick_'));
    const ids = { trickId: trick._id, trickListId: listId };
    expect(events.map((event) => [event.name, event.properties])).toEqual([
      ['trick_added', ids],
      ['trick_attempt_logged', { ...ids, attempts: 1 }],
      ['trick_attempt_logged', { ...ids, attempts: 2 }],
      ['trick_landed', ids],
    ]);
    await expectValidServerEvents(rider);
  });

  it('saving a spot to a list records spot_saved once, not on a repeated save', async () => {
    const rider = await registerThroughRoute(api);
    const list = await createSpotList(api, rider);
    const spotId = await newSpot(api);
    for (let i = 0; i < 2; i += 1) {
      expect((await spotListCall(api, rider, 'PUT', `/api/spotlists/${list._id}/spots/${spotId}`)).status).toBe(200);
    }
    expect((await serverEvents(rider, 'spot_saved')).map((event) => event.properties)).toEqual([
      { spotId, spotListId: list._id },
    ]);
    await expectValidServerEvents(rider);
  });

  it('saving an event records event_saved once, not on a repeated save', async () => {
    const rider = await registerThroughRoute(api);
    const doc = eventDoc({ title: 'Analytics Jam' });
    await insertEvents(api, [doc]);
    const eventId = doc._id.toHexString();
    for (let i = 0; i < 2; i += 1) {
      expect((await call(api, 'POST', `/api/events/${eventId}/save`, { as: rider })).status).toBeLessThan(300);
    }
    expect((await serverEvents(rider, 'event_saved')).map((event) => event.properties)).toEqual([{ eventId }]);
    await expectValidServerEvents(rider);
  });

  it('a post and a comment record post_created and comment_created with ids only, never the text', async () => {
    const rider = await registerThroughRoute(api);
    const post = await newPost(api, rider, { text: 'Secret spot under the bridge' });
    const res = await call(api, 'POST', `/api/feed/${post._id}/comments`, { as: rider, json: { text: 'so sick' } });
    expect(res.status).toBe(201);
    const comment = await res.json<{ _id: string }>();
    const events = await serverEvents(rider);
    expect(events.filter((event) => event.name !== 'signup_completed').map((e) => [e.name, e.properties])).toEqual([
      ['post_created', { postId: post._id, hasMedia: false }],
      ['comment_created', { postId: post._id, commentId: comment._id }],
    ]);
    expect(JSON.stringify(events)).not.toMatch(/Secret|sick/);
    await expectValidServerEvents(rider);
  });

  it('a companion turn records ai_session_started and ai_response_completed that pass the taxonomy', async () => {
    const rider = await registerThroughRoute(api);
    await chat(api, rider, 'how do I ollie higher');
    expect((await serverEvents(rider)).map((event) => event.name)).toEqual([
      'signup_completed',
      'ai_session_started',
      'ai_response_completed',
    ]);
    expect(JSON.stringify(await serverEvents(rider))).not.toContain('ollie');
    await expectValidServerEvents(rider);
  });

  it('marks a question a substantive coaching turn, and a greeting not', async () => {
    const rider = await registerThroughRoute(api);
    await chat(api, rider, 'yo, thanks!');
    await chat(api, rider, 'how do I ollie higher');
    const turns = (await serverEvents(rider)).filter((event) => event.name === 'ai_response_completed');
    expect(turns.map((event) => event.properties.substantive)).toEqual([false, true]);
  });
});
