import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Event subscriptions older code stored odd: each is read, shown in the documented shape, changed and listed.

const api = createApi('event-subscriptions-legacy', {}, { indexes: true });
const PATH = '/api/event-subscriptions';
type Sub = { _id: string; [key: string]: unknown };

const insert = (docs: Record<string, unknown>[]) =>
  api.db((db) => db.collection('eventSubscriptions').insertMany(docs as never[]));

/** A subscription as older code could leave it: a lone value for a list, a name object, dates and numbers as text. */
const odd = (rider: TestAccount, fields: Record<string, unknown> = {}) => ({
  _id: new ObjectId(),
  userId: new ObjectId(rider._id),
  name: { en: 'Bowls' },
  sports: 'skateboarding',
  level: [null, 'pro', { x: 1 }],
  place: { location: { type: 'Point', coordinates: ['-122.68', 45.52] }, radiusKm: '100', label: 7 },
  lastDigestAt: 'yesterday-ish',
  createdAt: '2021-03-04T05:06:07Z',
  version: '2',
  ...fields,
});

const SHAPE = {
  name: null,
  sports: ['skateboarding'],
  disciplines: [],
  eventKinds: [],
  intents: [],
  level: ['pro'],
  place: { lat: 45.52, lng: -122.68, radiusKm: 100, label: '7' },
  organizerId: null,
  lastDigestAt: null,
  createdAt: '2021-03-04T05:06:07.000Z',
};

describe('event subscriptions stored by older code', () => {
  it('shows one in the documented shape, also when its own id or its owner is stored as hex', async () => {
    const rider = await register(api);
    const hexFields = { _id: new ObjectId().toHexString(), userId: rider._id, place: { radiusKm: 5 } };
    const [plain, hex] = [odd(rider), odd(rider, hexFields)];
    await insert([plain, hex]);
    const res = await call(api, 'GET', `${PATH}/${plain._id.toHexString()}`, { as: rider });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: plain._id.toHexString(), ...SHAPE });
    const hexRes = await call(api, 'GET', `${PATH}/${hex._id}`, { as: rider });
    expect(hexRes.status).toBe(200);
    expect(await hexRes.json()).toMatchObject({ _id: hex._id, place: null, sports: ['skateboarding'] });
  });

  it('lists every readable one, leaves out one it cannot read with its event line, and the cursor moves on', async () => {
    const rider = await register(api);
    const oldest = odd(rider);
    const clean = {
      _id: new ObjectId(),
      userId: new ObjectId(rider._id),
      name: 'Clean',
      sports: ['bmx'],
      disciplines: [],
      eventKinds: [],
      intents: [],
      level: [],
      place: null,
      organizerId: null,
      matchKeys: ['sport:bmx'],
      lastDigestAt: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    // An _id that names no document (not an ObjectId nor its hex) cannot be read: left out, named in the line.
    await insert([oldest, clean, { ...odd(rider), _id: 'legacy-7' }]);
    let all: { items: Sub[] } = { items: [] };
    const lines = await captureLogLines(async () => {
      all = await (await call(api, 'GET', PATH, { as: rider })).json();
    });
    expect(all.items.map((s) => s._id)).toEqual([clean._id.toHexString(), oldest._id.toHexString()]);
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'eventSubscriptions', id: 'legacy-7' }),
    ]);
    const first = await (await call(api, 'GET', `${PATH}?limit=1`, { as: rider })).json<{
      items: Sub[];
      nextCursor: string | null;
    }>();
    expect(first.items.map((s) => s.name)).toEqual(['Clean']);
    const second = await (await call(api, 'GET', `${PATH}?limit=1&cursor=${first.nextCursor}`, { as: rider })).json<{
      items: Sub[];
    }>();
    expect(second.items).toEqual([expect.objectContaining({ _id: oldest._id.toHexString(), ...SHAPE })]);
  });

  it('changes one with missing lists and a place without a usable point, and leaves it readable', async () => {
    const rider = await register(api);
    const doc = odd(rider, { sports: undefined, level: undefined, place: { location: 'Portland' }, version: null });
    await insert([doc]);
    const res = await call(api, 'PATCH', `${PATH}/${doc._id.toHexString()}`, {
      as: rider,
      json: { name: 'Renamed', intents: ['compete'] },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'Renamed',
      sports: [],
      level: [],
      intents: ['compete'],
      place: null,
    });
    const stored = await api.db((db) => db.collection('eventSubscriptions').findOne({ _id: doc._id }));
    expect(stored).toMatchObject({ version: 1, matchKeys: ['intent:compete'], createdAt: new Date(SHAPE.createdAt) });
    const again = await call(api, 'PATCH', `${PATH}/${doc._id.toHexString()}`, { as: rider, json: { name: 'Twice' } });
    expect(again.status).toBe(200);
  });

  it('refuses to leave no criterion on one that stored none as text', async () => {
    const rider = await register(api);
    const doc = odd(rider, { sports: 'skateboarding', level: '', place: null });
    await insert([doc]);
    const res = await call(api, 'PATCH', `${PATH}/${doc._id.toHexString()}`, { as: rider, json: { sports: [] } });
    expect(res.status).toBe(400);
  });
});
