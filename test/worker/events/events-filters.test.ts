import { ObjectId } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, refusedFields } from '../../support/content';
import { clearEvents, eventDoc, insertEvents, listedIds, listPage } from '../../support/events';
import { createApi } from '../../support/worker-api';

const api = createApi('events-filters');
const ids = (...docs: { _id: ObjectId }[]) => docs.map((doc) => doc._id.toHexString()).sort();
const found = async (query: string) => (await listedIds(api, query)).sort();

beforeEach(() => clearEvents(api));

describe('GET /api/events filters', () => {
  it('q matches title, description or series, case-insensitive, its regex characters literally', async () => {
    const [byTitle, byDescription, bySeries, other] = [
      eventDoc({ title: 'Bowl Bash (Finals)' }),
      eventDoc({ description: 'The BOWL bash after-party' }),
      eventDoc({ series: 'bowl bash tour' }),
      eventDoc({ title: 'Street League' }),
    ];
    await insertEvents(api, [byTitle, byDescription, bySeries, other]);
    expect(await found('q=bowl%20bash')).toEqual(ids(byTitle, byDescription, bySeries));
    expect(await found('q=(finals)')).toEqual(ids(byTitle));
    expect(await found('q=.*')).toEqual([]);
  });

  it('sport matches the sports list', async () => {
    const [skate, snow, both] = [
      eventDoc({ sports: ['skateboarding'] }),
      eventDoc({ sports: ['snowboarding', 'skiing'] }),
      eventDoc({ sports: ['bmx', 'skiing'] }),
    ];
    await insertEvents(api, [skate, snow, both]);
    expect(await found('sport=skiing')).toEqual(ids(snow, both));
    expect(await found('sport=skateboarding')).toEqual(ids(skate));
  });

  it('location matches venue name, city, region or country, case-insensitive', async () => {
    const [byName, byCity, byRegion, byCountry, online] = [
      eventDoc({ venue: { name: 'Portland Bowl', city: 'Salem' } }),
      eventDoc({ venue: { city: 'Portland', region: 'OR' } }),
      eventDoc({ venue: { city: 'Bend', region: 'Portlandia' } }),
      eventDoc({ venue: { city: 'Lisbon', country: 'Portugal' } }),
      eventDoc({ isOnline: true, venue: null }),
    ];
    await insertEvents(api, [byName, byCity, byRegion, byCountry, online]);
    expect(await found('location=PORTLAND')).toEqual(ids(byName, byCity, byRegion));
    expect(await found('location=portu')).toEqual(ids(byCountry));
  });

  it('community intent matches the series text; the other intents their stored signals', async () => {
    const community = eventDoc({ series: 'Community Skate Nights' });
    const compete = eventDoc({ intents: ['compete'], series: 'Pro Tour' });
    const inPerson = eventDoc({ spectating: { inPerson: true } });
    const taggedInPerson = eventDoc({ intents: ['spectate_in_person'] });
    const streamed = eventDoc({ spectating: { streamUrl: 'https://stream.example/live' } });
    const online = eventDoc({ isOnline: true });
    const plain = eventDoc({ intents: ['community'], spectating: { inPerson: false, streamUrl: '' } });
    await insertEvents(api, [community, compete, inPerson, taggedInPerson, streamed, online, plain]);
    expect(await found('intent=community')).toEqual(ids(community));
    expect(await found('intent=compete')).toEqual(ids(compete));
    expect(await found('intent=spectate_in_person')).toEqual(ids(inPerson, taggedInPerson));
    expect(await found('intent=spectate_online')).toEqual(ids(streamed, online));
  });

  it('registration matches participation.registrationStatus', async () => {
    const [open, closed, none] = [
      eventDoc({ participation: { registrationStatus: 'open', registrationClosesAt: new Date('2031-01-01') } }),
      eventDoc({ participation: { registrationStatus: 'closed' } }),
      eventDoc({ participation: null }),
    ];
    await insertEvents(api, [open, closed, none]);
    expect(await found('registration=open')).toEqual(ids(open));
    expect(await found('registration=closed')).toEqual(ids(closed));
    expect(await found('registration=upcoming')).toEqual([]);
    const listed = (await listPage(api, 'registration=open')).events[0];
    expect(listed?.participation).toEqual({
      registrationStatus: 'open',
      registrationClosesAt: '2031-01-01T00:00:00.000Z',
    });
  });

  it('combines filters: every one must hold', async () => {
    const [match, wrongSport, wrongPlace] = [
      eventDoc({ title: 'Jam', sports: ['bmx'], venue: { city: 'Austin' } }),
      eventDoc({ title: 'Jam', sports: ['skateboarding'], venue: { city: 'Austin' } }),
      eventDoc({ title: 'Jam', sports: ['bmx'], venue: { city: 'Dallas' } }),
    ];
    await insertEvents(api, [match, wrongSport, wrongPlace]);
    expect(await found('q=jam&sport=bmx&location=austin')).toEqual(ids(match));
  });
});

describe('GET /api/events refuses unknown values with a 400 naming the parameter', () => {
  const cases: [string, string][] = [
    ['sport=curling', 'sport'],
    ['intent=watch', 'intent'],
    ['registration=maybe', 'registration'],
    ['date=tomorrow', 'date'],
    ['date=2031-02-30', 'date'],
    ['date=2031-03-05..2031-03-01', 'date'],
    ['cursor=abc', 'cursor'],
    ['cursor=-20', 'cursor'],
    ['cursor=1000001', 'cursor'],
    ['paging=pages', 'paging'],
    ['paging=keyset&cursor=20', 'cursor'],
    [`q=${'x'.repeat(201)}`, 'q'],
  ];
  for (const [query, field] of cases) {
    it(`${query.slice(0, 40)} → 400 naming ${field}`, async () => {
      const res = await call(api, 'GET', `/api/events?${query}`);
      expect(res.status).toBe(400);
      expect(await refusedFields(res)).toEqual([field]);
    });
  }
});

describe('records with absent, empty or wrong-typed fields', () => {
  it('never break the list, and are shown with nulls and empty lists', async () => {
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    const odd = [
      // Unique indexes on dedupeKey and slug (worker/platform/db/indexes.ts) let one record lack each.
      { _id: new ObjectId(), startAt: soon },
      {
        _id: new ObjectId(),
        dedupeKey: 'odd-1',
        startAt: soon,
        title: 42,
        slug: '',
        sports: 'bmx',
        venue: 'Austin',
        organizer: [],
        participation: 'open',
        spectating: { inPerson: 'yes', streamUrl: 7 },
        level: 'open',
        intents: [null, 'compete', 3],
        endAt: 'next week',
        sourceTrust: 'high',
        createdAt: 'yesterday',
        series: null,
        description: { html: '<p>' },
      },
      { _id: new ObjectId(), dedupeKey: 'odd-2', slug: 'odd-2', startAt: 'tomorrow', title: 'Date as text' },
      { _id: new ObjectId(), dedupeKey: 'odd-3', slug: 'odd-3', title: 'No date' },
      { _id: new ObjectId(), dedupeKey: 'odd-4', slug: 'odd-4', startAt: null, venue: { city: null, lat: 'x' } },
      eventDoc({ startAt: soon, venue: { city: 'Austin', lat: Number.NaN, lng: null } }),
    ];
    await insertEvents(api, odd);
    for (const query of [
      '',
      'q=a',
      'sport=bmx',
      'location=austin',
      'intent=compete',
      'intent=spectate_online',
      'intent=community',
      'registration=open',
    ]) {
      expect((await call(api, 'GET', `/api/events?${query}`)).status, query).toBe(200);
    }
    const page = await listPage(api);
    expect(page.totalCount).toBe(3);
    const bare = page.events.find((event) => event._id === odd[0]!._id.toHexString());
    expect(bare).toMatchObject({ title: null, slug: null, sports: [], venue: null, endAt: null, participation: null });
    const wrong = page.events.find((event) => event._id === odd[1]!._id.toHexString());
    // Read by worker/events/stored-event.ts: a number where text belongs reads as its text, and a creation
    // time that is no date falls back to the id's (worker/platform/db/stored-values.ts).
    expect(wrong).toMatchObject({
      title: '42',
      slug: null,
      sports: ['bmx'],
      venue: null,
      organizer: null,
      participation: null,
      spectating: { inPerson: null, streamUrl: '7', ticketUrl: null, streamStatus: null },
      level: ['open'],
      intents: ['compete'],
      endAt: null,
      sourceTrust: null,
      createdAt: odd[1]!._id.getTimestamp().toISOString(),
      description: null,
    });
    expect(await found('sport=bmx')).toEqual(ids(odd[1]!));
  });
});
