import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import {
  clearEvents,
  DAY_MS,
  eventDoc,
  insertEvents,
  listAll,
  listedIds,
  listPage,
  utcDay,
} from '../../support/events';
import { createApi } from '../../support/worker-api';

const api = createApi('events-list');
const HOUR_MS = 60 * 60 * 1000;
const at = (day: Date, hours: number, minutes = 0) => new Date(day.getTime() + hours * HOUR_MS + minutes * 60_000);

beforeEach(() => clearEvents(api));

describe('GET /api/events: order and window (the interface spec, list rules)', () => {
  it('sorts past and future events by their distance in time from now, historical records included', async () => {
    const now = Date.now();
    const offsets = [-3 * HOUR_MS, 5 * HOUR_MS, -1 * HOUR_MS, 2 * DAY_MS, -2 * DAY_MS, 30 * 60_000];
    const docs = offsets.map((offset) => eventDoc({ startAt: new Date(now + offset) }));
    await insertEvents(api, docs);
    // Past events need a window that reaches back to them.
    const range = `${utcDay(-3).toISOString().slice(0, 10)}..${utcDay(3).toISOString().slice(0, 10)}`;
    const byDistance = [...docs].sort(
      (a, b) => Math.abs((a.startAt as Date).getTime() - now) - Math.abs((b.startAt as Date).getTime() - now),
    );
    expect(await listedIds(api, `date=${range}`)).toEqual(byDistance.map((doc) => doc._id.toHexString()));
  });

  it('without date, finds the next 30 UTC days: 23:30 on the last day is in, 00:30 the day after is out, yesterday is out', async () => {
    const lastDay = utcDay(LIMITS.events.defaultWindowDays - 1);
    const [inside, outside, yesterday, today] = [
      eventDoc({ startAt: at(lastDay, 23, 30) }),
      eventDoc({ startAt: at(lastDay, 24, 30) }),
      eventDoc({ startAt: at(utcDay(-1), 12) }),
      eventDoc({ startAt: at(utcDay(0), 0, 1) }),
    ];
    await insertEvents(api, [inside, outside, yesterday, today]);
    const ids = await listedIds(api);
    expect(ids.sort()).toEqual([inside, today].map((doc) => doc._id.toHexString()).sort());
    expect((await listPage(api, 'date=month')).totalCount).toBe(2);
  });

  it('cuts a YYYY-MM-DD day and a YYYY-MM-DD..YYYY-MM-DD range at UTC midnight, both days included', async () => {
    const [before, first, last, after] = [
      eventDoc({ startAt: new Date('2031-03-09T23:30:00Z') }),
      eventDoc({ startAt: new Date('2031-03-10T00:30:00Z') }),
      eventDoc({ startAt: new Date('2031-03-12T23:30:00Z') }),
      eventDoc({ startAt: new Date('2031-03-13T00:30:00Z') }),
    ];
    await insertEvents(api, [before, first, last, after]);
    const ids = (docs: { _id: { toHexString(): string } }[]) => docs.map((doc) => doc._id.toHexString()).sort();
    expect((await listedIds(api, 'date=2031-03-10..2031-03-12')).sort()).toEqual(ids([first, last]));
    expect(await listedIds(api, 'date=2031-03-12')).toEqual(ids([last]));
    expect(await listedIds(api, 'date=2031-03-09')).toEqual(ids([before]));
  });

  it(`includes a multi-day event that started before the window (up to ${LIMITS.events.longestRunDays} days) and still runs in it`, async () => {
    const running = eventDoc({ startAt: at(utcDay(-2), 12), endAt: at(utcDay(1), 12) });
    const ended = eventDoc({ startAt: at(utcDay(-3), 12), endAt: at(utcDay(-1), 12) });
    const tooLong = eventDoc({
      startAt: at(utcDay(-LIMITS.events.longestRunDays - 1), 12),
      endAt: at(utcDay(1), 12),
    });
    await insertEvents(api, [running, ended, tooLong]);
    expect(await listedIds(api, 'date=today')).toEqual([running._id.toHexString()]);
    expect(await listedIds(api)).toEqual([running._id.toHexString()]);
  });

  it('today is one UTC day and week seven (weekend: test/node/events/event-date-window.test.ts)', async () => {
    const docs = {
      today: eventDoc({ startAt: at(utcDay(0), 23, 59) }),
      tomorrow: eventDoc({ startAt: at(utcDay(1), 0, 1) }),
      sixth: eventDoc({ startAt: at(utcDay(6), 23, 30) }),
      seventh: eventDoc({ startAt: at(utcDay(7), 0, 30) }),
    };
    await insertEvents(api, Object.values(docs));
    const names = async (query: string) => {
      const ids = await listedIds(api, query);
      return Object.entries(docs)
        .filter(([, doc]) => ids.includes(doc._id.toHexString()))
        .map(([name]) => name)
        .sort();
    };
    expect(await names('date=today')).toEqual(['today']);
    expect(await names('date=week')).toEqual(['sixth', 'today', 'tomorrow']);
  });
});

describe('GET /api/events: pages', () => {
  it(`answers pages of exactly ${LIMITS.events.pageSize}, whatever limit a client sends`, async () => {
    await insertEvents(
      api,
      Array.from({ length: 25 }, (_, i) => eventDoc({ startAt: new Date(Date.now() + (i + 1) * HOUR_MS) })),
    );
    const first = await listPage(api, 'limit=5');
    expect(first.events).toHaveLength(LIMITS.events.pageSize);
    expect(first).toMatchObject({ nextCursor: String(LIMITS.events.pageSize), totalCount: 25 });
    const second = await listPage(api, `cursor=${first.nextCursor}`);
    expect(second.events).toHaveLength(5);
    expect(second).toMatchObject({ nextCursor: null, totalCount: 25 });
  });

  it('walks more than 40 events with the offset cursor, reaching each exactly once, ties on startAt included', async () => {
    const shared = new Date(Date.now() + 3 * DAY_MS);
    const docs = Array.from({ length: 47 }, (_, i) =>
      eventDoc({ startAt: i % 3 === 0 ? shared : new Date(Date.now() + (i % 9) * HOUR_MS + 60_000) }),
    );
    await insertEvents(api, docs);
    const pages = await listAll(api);
    expect(pages.map((page) => page.events.length)).toEqual([20, 20, 7]);
    expect(pages.every((page) => page.totalCount === 47)).toBe(true);
    const ids = pages.flatMap((page) => page.events.map((event) => event._id));
    expect(new Set(ids).size).toBe(47);
    expect(ids.sort()).toEqual(docs.map((doc) => doc._id.toHexString()).sort());
  });

  it('accepts radius and ignores it', async () => {
    await insertEvents(api, [eventDoc(), eventDoc({ venue: { city: 'Oslo', lat: 59.9, lng: 10.7 } })]);
    const plain = await listPage(api);
    for (const radius of ['10', '0', '-5', 'far', '']) {
      expect(await listPage(api, `radius=${radius}`)).toEqual(plain);
    }
    expect(plain.totalCount).toBe(2);
  });

  it('answers an empty page past the end', async () => {
    await insertEvents(api, [eventDoc()]);
    expect(await listPage(api, 'cursor=40')).toEqual({ events: [], nextCursor: null, totalCount: 1 });
  });
});
