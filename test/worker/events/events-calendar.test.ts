import ICAL from 'ical.js';
import { ObjectId } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../support/content';
import { clearEvents, DAY_MS, eventDoc, insertEvents, listAll, utcDay } from '../../support/events';
import { createApi } from '../../support/worker-api';

const api = createApi('events-calendar');

/** The VEVENTs of an iCalendar body, parsed by ical.js (an independent parser). */
function parseEvents(ics: string) {
  return new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
}

async function calendar(path: string) {
  const res = await call(api, 'GET', path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  return res.text();
}

beforeEach(() => clearEvents(api));

describe('GET /api/events/calendar.ics', () => {
  it('parses with ical.js and holds exactly the events of the list, in its order, with the same filters', async () => {
    const soon = (hours: number) => new Date(Date.now() + hours * 60 * 60 * 1000 + 60_000);
    const docs = [
      ...Array.from({ length: 23 }, (_, i) => eventDoc({ startAt: soon(i * 5), sports: ['bmx'] })),
      eventDoc({ startAt: soon(3), sports: ['skateboarding'] }),
      eventDoc({ startAt: new Date(Date.now() - 40 * DAY_MS) }),
    ];
    await insertEvents(api, docs);
    for (const query of ['', '?sport=bmx', '?date=week&sport=skateboarding']) {
      const listed = (await listAll(api, query.slice(1))).flatMap((page) => page.events);
      const parsed = parseEvents(await calendar(`/api/events/calendar.ics${query}`));
      expect(parsed.map((event) => event.uid)).toEqual(listed.map((event) => `${event._id}@rider-service`));
      expect(parsed.map((event) => event.summary)).toEqual(listed.map((event) => event.title));
      expect(parsed.map((event) => event.startDate.toJSDate().getTime())).toEqual(
        // iCalendar times have whole seconds.
        listed.map((event) => Math.floor(new Date(event.startAt!).getTime() / 1000) * 1000),
      );
    }
  });

  it('writes a date-only (noon UTC) or time-TBA event as all-day, DTEND the day after its last day', async () => {
    const day = utcDay(3);
    const noon = new Date(day.getTime() + DAY_MS / 2);
    const [multiDay, tba] = [
      eventDoc({ title: 'Three Days', startAt: noon, endAt: new Date(noon.getTime() + 2 * DAY_MS) }),
      eventDoc({ title: 'Time TBA', startAt: new Date(day.getTime() + 15 * 60 * 60 * 1000), timeTba: true }),
    ];
    await insertEvents(api, [multiDay, tba]);
    const byTitle = new Map(
      parseEvents(await calendar('/api/events/calendar.ics')).map((event) => [event.summary, event]),
    );
    const iso = (days: number) => new Date(day.getTime() + days * DAY_MS).toISOString().slice(0, 10);
    for (const [title, lastDay] of [
      ['Three Days', 2],
      ['Time TBA', 0],
    ] as const) {
      const event = byTitle.get(title)!;
      expect(event.startDate.isDate).toBe(true);
      expect(event.startDate.toString()).toBe(iso(0));
      expect(event.endDate.isDate).toBe(true);
      expect(event.endDate.toString()).toBe(iso(lastDay + 1));
    }
  });

  it('keeps a timed event in UTC, with its place, link, sports and awkward text intact', async () => {
    const start = new Date(Date.UTC(2031, 4, 6, 17, 30));
    const doc = eventDoc({
      title: 'Rock & Roll; Bowl, "Finals"\\ Night',
      description: `Line one\nLine two, with; punctuation ${'and a long tail '.repeat(8)}🛹`,
      startAt: start,
      endAt: new Date(start.getTime() + 3 * 60 * 60 * 1000),
      sports: ['skateboarding', 'bmx'],
      sourceUrl: 'https://events.example/rock-and-roll',
      venue: { name: 'House Park', city: 'Austin', region: 'TX', country: 'US', lat: 30.27, lng: -97.74 },
    });
    await insertEvents(api, [doc]);
    const ics = await calendar(`/api/events/${doc._id.toHexString()}/calendar.ics`);
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const [event] = parseEvents(ics);
    expect(event!.uid).toBe(`${doc._id.toHexString()}@rider-service`);
    expect(event!.summary).toBe(doc.title);
    expect(event!.description).toBe(doc.description);
    expect(event!.location).toBe('House Park, Austin, TX, US');
    expect(event!.startDate.isDate).toBe(false);
    expect(event!.startDate.toJSDate().toISOString()).toBe(start.toISOString());
    expect(event!.endDate.toJSDate().toISOString()).toBe('2031-05-06T20:30:00.000Z');
    const vevent = event!.component;
    expect(vevent.getFirstPropertyValue('url')).toBe('https://events.example/rock-and-roll');
    expect(vevent.getFirstProperty('categories')!.getValues()).toEqual(['skateboarding', 'bmx']);
    expect(vevent.getFirstPropertyValue('geo')).toEqual([30.27, -97.74]);
    expect(vevent.getFirstPropertyValue('dtstamp')).toBeTruthy();
  });

  it('gives the same UID and DTSTAMP on every download', async () => {
    const doc = eventDoc();
    await insertEvents(api, [doc]);
    const path = `/api/events/${doc._id.toHexString()}/calendar.ics`;
    expect(await calendar(path)).toBe(await calendar(path));
  });

  it('answers an empty calendar, still valid, when nothing matches', async () => {
    const ics = await calendar('/api/events/calendar.ics?q=nothing-like-this');
    expect(parseEvents(ics)).toEqual([]);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
  });

  it('refuses unknown filter values with a 400, as the list does', async () => {
    expect((await call(api, 'GET', '/api/events/calendar.ics?date=someday')).status).toBe(400);
  });

  it('answers 404 for one event that is unknown or has no date yet', async () => {
    const undated = eventDoc({ startAt: null });
    await insertEvents(api, [undated]);
    for (const id of [new ObjectId().toHexString(), undated._id.toHexString()]) {
      expect((await call(api, 'GET', `/api/events/${id}/calendar.ics`)).status).toBe(404);
    }
  });
});
