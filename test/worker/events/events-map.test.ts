import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { call, refusedFields } from '../../support/content';
import { clearEvents, DAY_MS, eventDoc, insertEvents } from '../../support/events';
import { createApi } from '../../support/worker-api';

const api = createApi('events-map');
const soon = (days = 1) => new Date(Date.now() + days * DAY_MS);
const place = (city: string, lat: unknown, lng: unknown) => ({ venue: { name: `${city} Park`, city, lat, lng } });

async function pins(query: string) {
  const res = await call(api, 'GET', `/api/events/map-pins?${query}`);
  expect(res.status).toBe(200);
  return res.json<{ pins: { id: string; [key: string]: unknown }[]; totalCount: number }>();
}

beforeEach(() => clearEvents(api));

describe('GET /api/events/map-pins', () => {
  it('answers compact pins of the events inside the box only, nearest in time first', async () => {
    const [austin, dallas, oslo, noCoordinates, textCoordinates] = [
      eventDoc({ ...place('Austin', 30.27, -97.74), startAt: soon(2), sports: ['bmx'] }),
      eventDoc({ ...place('Dallas', 32.78, -96.8), startAt: soon(1) }),
      eventDoc({ ...place('Oslo', 59.91, 10.75) }),
      eventDoc({ ...place('Houston', null, null) }),
      eventDoc({ ...place('Waco', '31.5', '-97.1') }),
    ];
    await insertEvents(api, [austin, dallas, oslo, noCoordinates, textCoordinates]);
    const body = await pins('bbox=-100,29,-95,33');
    expect(body.totalCount).toBe(2);
    expect(body.pins).toEqual([
      {
        id: dallas._id.toHexString(),
        slug: dallas.slug,
        title: dallas.title,
        startAt: (dallas.startAt as Date).toISOString(),
        lat: 32.78,
        lng: -96.8,
        sports: ['skateboarding'],
      },
      expect.objectContaining({ id: austin._id.toHexString(), lat: 30.27, lng: -97.74, sports: ['bmx'] }),
    ]);
  });

  it("applies the list's filters, its default window included", async () => {
    const [bmx, skate, later] = [
      eventDoc({ ...place('Austin', 30.27, -97.74), sports: ['bmx'] }),
      eventDoc({ ...place('Austin', 30.27, -97.74), sports: ['skateboarding'] }),
      eventDoc({ ...place('Austin', 30.27, -97.74), sports: ['bmx'], startAt: soon(45) }),
    ];
    await insertEvents(api, [bmx, skate, later]);
    expect((await pins('bbox=-100,29,-95,33&sport=bmx')).pins.map((pin) => pin.id)).toEqual([bmx._id.toHexString()]);
  });

  it('takes a box whose minLng exceeds maxLng as crossing the antimeridian', async () => {
    const [fiji, samoa, sydney] = [
      eventDoc(place('Suva', -18.14, 178.44)),
      eventDoc(place('Apia', -13.83, -171.76)),
      eventDoc(place('Sydney', -33.87, 151.21)),
    ];
    await insertEvents(api, [fiji, samoa, sydney]);
    const ids = (await pins('bbox=170,-25,-165,-10')).pins.map((pin) => pin.id).sort();
    expect(ids).toEqual([fiji._id.toHexString(), samoa._id.toHexString()].sort());
  });

  it(`caps the pins at ${LIMITS.events.mapPinsMax}, totalCount saying how many matched`, async () => {
    const docs = Array.from({ length: LIMITS.events.mapPinsMax + 3 }, () => eventDoc(place('Austin', 30.27, -97.74)));
    await insertEvents(api, docs);
    const body = await pins('bbox=-98,30,-97,31');
    expect(body.pins).toHaveLength(LIMITS.events.mapPinsMax);
    expect(body.totalCount).toBe(LIMITS.events.mapPinsMax + 3);
  });

  for (const bbox of ['', '1,2,3', '1,2,3,4,5', 'a,b,c,d', '-181,0,0,1', '0,-91,1,0', '0,10,1,5', '0,,1,2']) {
    it(`refuses bbox="${bbox}" with a 400 naming bbox`, async () => {
      const res = await call(api, 'GET', `/api/events/map-pins?bbox=${bbox}`);
      expect(res.status).toBe(400);
      expect(await refusedFields(res)).toEqual(['bbox']);
    });
  }

  it('refuses a request without bbox with a 400 naming bbox', async () => {
    const res = await call(api, 'GET', '/api/events/map-pins');
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toEqual(['bbox']);
  });
});
