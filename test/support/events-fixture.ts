import { ObjectId } from 'mongodb';
import { eventDedupeKey, eventSlug } from '../../worker/events/catalog/identity';

// A fixed set of Live records (both connectors' shapes, demo data and odd values), with fixed ids
// and dates, so the Live list's and detail's answers can be pinned byte for byte
// (test/worker/events/events-live-pin.test.ts, golden in test/fixtures/events-live-pin.json).

const DAY_MS = 24 * 60 * 60 * 1000;
const BASE = Date.UTC(2031, 5, 1, 12);
const STAMP = new Date('2030-01-02T03:04:05.000Z');
const CITIES = [
  ['Austin', 'TX', 'US', 30.27, -97.74],
  ['Portland', 'OR', 'US', 45.52, -122.67],
  ['Berlin', null, 'Germany', 52.52, 13.4],
  ['Online', null, null, null, null],
] as const;

/** 25 events: more than a page of 20, so the offset cursor is pinned too. */
export function liveFixture(): Record<string, unknown>[] {
  return Array.from({ length: 25 }, (_, i) => {
    const [city, region, country, lat, lng] = CITIES[i % CITIES.length]!;
    const title = i % 7 === 3 ? `Bowl Invitational ${i}` : `Park Jam ${i}`;
    const startAt = new Date(BASE + i * DAY_MS + (i % 3) * 3_600_000);
    const dedupeKey = eventDedupeKey({ title, startAt, city });
    const fromTwo = i % 2 === 1;
    const doc: Record<string, unknown> = {
      _id: new ObjectId((0x6000_0000 + i).toString(16).padStart(24, '0')),
      slug: eventSlug(title, dedupeKey),
      dedupeKey,
      title,
      description: i % 5 === 0 ? null : `Riders meet in ${city}.`,
      sports: i % 4 === 2 ? ['bmx'] : ['skateboarding'],
      startAt,
      endAt: i % 6 === 0 ? new Date(startAt.getTime() + DAY_MS) : null,
      timezone: null,
      timeTba: fromTwo,
      status: 'scheduled',
      isOnline: city === 'Online',
      venue:
        city === 'Online'
          ? { name: null, city: null, region: null, country: null, lat: null, lng: null }
          : { name: `${city} Park`, city, region, country, lat, lng },
      organizer: { name: i % 3 === 0 ? 'Vans' : 'VANS Inc.', verified: i % 3 === 0 },
      spectating: { inPerson: !fromTwo, ...(i % 8 === 0 ? { streamUrl: 'https://stream.example/x' } : {}) },
      image: `https://img.example/${i}.jpg`,
      series: i % 5 === 1 ? 'Community Sessions' : null,
      source: fromTwo ? 'source-two' : 'source-one',
      sourceId: fromTwo ? String(1000 + i) : `park-jam-${i}`,
      sourceUrl: fromTwo ? `https://two.example/events/${1000 + i}` : `https://one.example/e/park-jam-${i}`,
      contentHash: `hash-${i}`,
      createdAt: STAMP,
      updatedAt: STAMP,
      lastSeenAt: STAMP,
    };
    if (fromTwo) {
      Object.assign(doc, {
        disciplines: ['park'],
        eventKinds: ['jam'],
        intents: i % 7 === 3 ? ['spectate_in_person'] : ['compete'],
        level: i % 7 === 3 ? 'invite-only' : 'open',
        sourceTrust: i % 3 === 0 ? 0.9 : 0.6,
      });
    }
    if (i % 4 === 0) {
      doc.participation = {
        registrationStatus: i % 8 === 0 ? 'open' : 'closed',
        registrationUrl: `https://one.example/register/${i}`,
        fee: '$20',
        closesAt: new Date(startAt.getTime() - 7 * DAY_MS),
      };
    }
    if (i === 9) doc.participation = {};
    if (i === 10) doc.level = ['pro', 'open'];
    if (i === 12) doc.resultsUrl = 'https://results.example/12';
    return doc;
  });
}

/** The list queries and detail paths the pin covers. */
export const PINNED_PATHS = [
  '/api/events?date=2031-06-01..2031-06-30',
  '/api/events?date=2031-06-01..2031-06-30&cursor=20',
  '/api/events?date=2031-06-01..2031-06-30&intent=compete',
  '/api/events?date=2031-06-01..2031-06-30&registration=open',
  '/api/events?date=2031-06-01..2031-06-30&sport=bmx',
  '/api/events?date=2031-06-01..2031-06-30&intent=spectate_online',
  '/api/events?date=2031-06-01..2031-06-30&location=berlin',
  '/api/events?date=2031-06-01..2031-06-30&paging=keyset',
  '/api/events/000000000000000060000003',
  '/api/events/000000000000000060000004',
  '/api/events/000000000000000060000009',
  '/api/events/00000000000000006000000a',
];
