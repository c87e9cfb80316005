import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { migrateEvents } from '../../../worker/events/catalog/migration';
import { linkedSpotId } from '../../../worker/events/catalog/spot-link';
import { createStore } from '../../../worker/platform/db/store';
import { call } from '../../support/content';
import { eventDoc, insertEvents, listPage } from '../../support/events';
import { createApi } from '../../support/worker-api';

// `?view=target`: the target shape only for a client that asks; unpublished events
// are in no list and 404 on the detail.

const api = createApi('events-target-view');

describe('GET /api/events?view=target and /api/events/:slugOrId?view=target', () => {
  it('answer the target shape, for a Live record and for a migrated one alike', async () => {
    const doc = eventDoc({ level: 'invite-only', source: 'source-two', sourceTrust: 0.9, title: 'Target Jam' });
    await insertEvents(api, [doc]);
    const id = doc._id.toHexString();
    const before = await (await call(api, 'GET', `/api/events/${id}?view=target`)).json();
    await api.db((db) => migrateEvents(db));
    const after = await (await call(api, 'GET', `/api/events/${id}?view=target`)).json<Record<string, unknown>>();
    expect(after).toMatchObject({
      _id: id,
      level: [],
      participation: { inviteOnly: true, registrationStatus: null },
      venue: { location: { type: 'Point', coordinates: [-97.74, 30.27] }, spotId: null },
      approvalStatus: 'approved',
      relationshipCounts: { interested: 0, going: 0, competing: 0, watching_online: 0 },
      sourceTrust: 0.9,
    });
    expect(after).toEqual(before);
    const page = await listPage(api, 'view=target&q=Target%20Jam');
    expect(page.events).toEqual([after]);
    // Without view the Live shape, with invite-only back in level.
    const live = await (await call(api, 'GET', `/api/events/${id}`)).json<Record<string, unknown>>();
    expect(live).toMatchObject({ level: ['invite-only'], participation: null });
    expect(live).not.toHaveProperty('approvalStatus');
  });

  it('leaves pending and rejected events out of the list and answers 404 on their detail', async () => {
    const pending = eventDoc({ title: 'Pending Jam', approvalStatus: 'pending' });
    const rejected = eventDoc({ title: 'Rejected Jam', approvalStatus: 'rejected' });
    const approved = eventDoc({ title: 'Approved Jam', approvalStatus: 'approved' });
    await insertEvents(api, [pending, rejected, approved]);
    const ids = (await listPage(api, 'q=Jam')).events.map((event) => event._id);
    expect(ids).toContain(approved._id.toHexString());
    expect(ids).not.toContain(pending._id.toHexString());
    expect(ids).not.toContain(rejected._id.toHexString());
    expect((await call(api, 'GET', `/api/events/${pending.slug}`)).status).toBe(404);
    expect((await call(api, 'GET', `/api/events/${rejected._id.toHexString()}?view=target`)).status).toBe(404);
  });

  it('answers 400 naming view for an unknown view', async () => {
    const res = await call(api, 'GET', '/api/events?view=v3');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('view');
  });
});

describe('venue.spotId (worker/events/catalog/spot-link.ts)', () => {
  it('links a venue to the spot within 150 m whose name agrees, and to nothing farther or differently named', async () => {
    await call(api, 'GET', '/api/events?view=target'); // the declared indexes, spots' 2dsphere included
    const spot = {
      _id: new ObjectId(),
      name: 'House Park Skatepark',
      location: { type: 'Point', coordinates: [-97.75, 30.27] },
    };
    const far = { _id: new ObjectId(), name: 'House Park', location: { type: 'Point', coordinates: [-97.76, 30.27] } };
    await api.db((db) => db.collection('spots').insertMany([spot, far]));
    const link = (name: string, coordinates: [number, number]) =>
      api.db((db) =>
        linkedSpotId(
          createStore(() => db),
          { name, location: { type: 'Point', coordinates } },
        ),
      );
    // 0.0005 degrees of longitude at 30 N is about 48 m.
    expect(await link('House Park', [-97.7505, 30.27])).toEqual(spot._id);
    expect(await link('Mabel Davis', [-97.7505, 30.27])).toBeNull();
    expect(await link('House Park', [-97.755, 30.27])).toBeNull();
  });
});

describe('map pins by venue.location (worker/events/catalog/geo.ts)', () => {
  it('find migrated events by their GeoJSON point and Live records by lat/lng, across the antimeridian too', async () => {
    const [austin, fiji, live] = [
      eventDoc({ title: 'Geo Austin' }),
      eventDoc({ title: 'Geo Fiji', venue: { name: 'Suva Park', city: 'Suva', lat: -18.14, lng: 178.44 } }),
      eventDoc({ title: 'Geo Live', venue: { name: 'Far', city: 'Austin', lat: 30.3, lng: -97.7 } }),
    ];
    await insertEvents(api, [austin, fiji]);
    await api.db((db) => migrateEvents(db));
    // The point alone places a migrated event: the Live mirror is cleared.
    await api.db((db) =>
      db.collection('events').updateMany({ schemaVersion: 2 }, { $set: { 'venue.lat': null, 'venue.lng': null } }),
    );
    await insertEvents(api, [live]);
    const pins = async (bbox: string) => {
      const res = await call(api, 'GET', `/api/events/map-pins?bbox=${bbox}`);
      // Earlier tests in this file left events in Austin too; only this test's count.
      const all = (await res.json<{ pins: { title: string; lat: number; lng: number }[] }>()).pins;
      return all.filter((pin) => pin.title.startsWith('Geo '));
    };
    expect((await pins('-98,30,-97,31')).map((pin) => pin.title).sort()).toEqual(['Geo Austin', 'Geo Live']);
    expect(await pins('170,-20,-170,-10')).toEqual([
      expect.objectContaining({ title: 'Geo Fiji', lat: -18.14, lng: 178.44 }),
    ]);
    expect(await pins('-97.73,30,-97,31')).toEqual([expect.objectContaining({ title: 'Geo Live' })]);
  });
});
