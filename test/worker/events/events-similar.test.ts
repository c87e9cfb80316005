import { ObjectId } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { call } from '../../support/content';
import { clearEvents, DAY_MS, eventDoc, insertEvents } from '../../support/events';
import { createApi } from '../../support/worker-api';

const api = createApi('events-similar');
const base = new Date(Date.UTC(2031, 5, 10, 12));
const dayOf = (days: number) => new Date(base.getTime() + days * DAY_MS);
const austin = { city: 'Austin', region: 'TX', country: 'US', lat: 30.27, lng: -97.74 };
const houston = { city: 'Houston', region: 'TX', country: 'US', lat: 29.76, lng: -95.37 };
const berlin = { city: 'Berlin', country: 'DE', lat: 52.52, lng: 13.4 };

async function similarTitles(id: string) {
  const res = await call(api, 'GET', `/api/events/${id}/similar`);
  expect(res.status).toBe(200);
  return (await res.json<{ events: { title: string }[] }>()).events.map((event) => event.title);
}

beforeEach(() => clearEvents(api));

describe('GET /api/events/{id}/similar', () => {
  it('finds events sharing a sport or a kind, nearest in time and place first, never the event itself', async () => {
    const event = eventDoc({ title: 'Origin', startAt: base, sports: ['bmx'], eventKinds: ['contest'], venue: austin });
    await insertEvents(api, [
      event,
      eventDoc({ title: 'Same city, next day', startAt: dayOf(1), sports: ['bmx'], venue: austin }),
      eventDoc({ title: 'Near city, same week', startAt: dayOf(3), sports: ['bmx', 'skateboarding'], venue: houston }),
      eventDoc({
        title: 'Same kind, other sport',
        startAt: dayOf(-8),
        sports: ['skiing'],
        eventKinds: ['contest'],
        venue: austin,
      }),
      eventDoc({ title: 'Far away, next day', startAt: dayOf(1), sports: ['bmx'], venue: berlin }),
      eventDoc({ title: 'Other sport and kind', startAt: dayOf(1), sports: ['skateboarding'], venue: austin }),
      eventDoc({
        title: 'Too far in time',
        startAt: dayOf(LIMITS.events.similarWindowDays + 2),
        sports: ['bmx'],
        venue: austin,
      }),
      eventDoc({ title: 'No date', startAt: null, sports: ['bmx'], venue: austin }),
    ]);
    // worker/events/catalog/similar.ts: a day apart weighs like 100 km apart (Houston is about 235 km from Austin).
    expect(await similarTitles(event._id.toHexString())).toEqual([
      'Same city, next day',
      'Near city, same week',
      'Same kind, other sport',
      'Far away, next day',
    ]);
  });

  it('places target events by venue.location ($geoNear on the 2dsphere index) and never offers an unpublished one', async () => {
    const placed = (venue: { lat: number; lng: number }, fields: Record<string, unknown>) =>
      eventDoc({
        schemaVersion: 2,
        approvalStatus: 'approved',
        sports: ['bmx'],
        venue: { ...venue, location: { type: 'Point', coordinates: [venue.lng, venue.lat] } },
        ...fields,
      });
    const event = placed(austin, { title: 'Origin', startAt: base });
    await insertEvents(api, [
      event,
      placed(houston, { title: 'Houston, two days on', startAt: dayOf(2) }),
      placed(berlin, { title: 'Berlin, next day', startAt: dayOf(1) }),
      placed(austin, { title: 'Pending submission', startAt: dayOf(1), approvalStatus: 'pending' }),
      placed(austin, { title: 'Merged away', startAt: dayOf(1), approvalStatus: 'rejected', mergedInto: event._id }),
    ]);
    expect(await similarTitles(event._id.toHexString())).toEqual(['Houston, two days on', 'Berlin, next day']);
  });

  it(`answers at most ${LIMITS.events.similarMax}`, async () => {
    const event = eventDoc({ startAt: base, sports: ['bmx'] });
    const others = Array.from({ length: LIMITS.events.similarMax + 4 }, (_, i) =>
      eventDoc({ startAt: dayOf(i + 1), sports: ['bmx'] }),
    );
    await insertEvents(api, [event, ...others]);
    expect(await similarTitles(event._id.toHexString())).toEqual(
      others.slice(0, LIMITS.events.similarMax).map((doc) => doc.title),
    );
  });

  it('answers none for an event with neither sports nor kinds, and 404 for an unknown id', async () => {
    const bare = { _id: new ObjectId(), dedupeKey: 'bare', slug: 'bare', title: 'Bare', startAt: base };
    await insertEvents(api, [bare, eventDoc({ startAt: dayOf(1) })]);
    expect(await similarTitles(bare._id.toHexString())).toEqual([]);
    expect((await call(api, 'GET', `/api/events/${new ObjectId().toHexString()}/similar`)).status).toBe(404);
  });
});

describe('GET /api/events?paging=keyset', () => {
  it('walks every event once in startAt then id order, ties included, beside an unchanged offset list', async () => {
    const tie = dayOf(2);
    const docs = Array.from({ length: 45 }, (_, i) => eventDoc({ startAt: i % 4 === 0 ? tie : dayOf((i % 11) - 5) }));
    await insertEvents(api, docs);
    const range = 'date=2031-06-01..2031-06-30';
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(api, 'GET', `/api/events?${range}&paging=keyset${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = await res.json<{ events: { _id: string }[]; nextCursor: string | null; totalCount: number }>();
      expect(page.totalCount).toBe(45);
      expect(page.events.length).toBeLessThanOrEqual(LIMITS.events.pageSize);
      seen.push(...page.events.map((event) => event._id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    const expected = [...docs]
      .sort(
        (a, b) =>
          (a.startAt as Date).getTime() - (b.startAt as Date).getTime() ||
          a._id.toHexString().localeCompare(b._id.toHexString()),
      )
      .map((doc) => doc._id.toHexString());
    expect(seen).toEqual(expected);

    const offsetPage = await (await call(api, 'GET', `/api/events?${range}`)).json<{ nextCursor: string }>();
    expect(offsetPage.nextCursor).toBe('20');
  });

  it('refuses an offset cursor on keyset paging and a keyset cursor on offset paging, naming cursor', async () => {
    await insertEvents(
      api,
      Array.from({ length: 21 }, () => eventDoc()),
    );
    const first = await (await call(api, 'GET', '/api/events?paging=keyset')).json<{ nextCursor: string }>();
    const res = await call(api, 'GET', `/api/events?cursor=${first.nextCursor}`);
    expect(res.status).toBe(400);
    expect((await call(api, 'GET', '/api/events?paging=keyset&cursor=20')).status).toBe(400);
  });
});
