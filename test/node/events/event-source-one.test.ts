import { describe, expect, it } from 'vitest';
import { ShapeError } from '../../../worker/events/ingestion/shape-error';
import { parseSourceOnePage } from '../../../worker/events/ingestion/source-one';
import { fixtureBase } from '../../support/stand-ins/event-fixture-dates';
import { sourceOnePage, sourceOneShapeChangedPage } from '../../support/stand-ins/event-source-one-fixture';

// A fixed "today" keeps months, and so the sport rule, the same on every run.
const base = fixtureBase(new Date('2026-06-15T08:00:00Z'));
const page = (n: number) => parseSourceOnePage(JSON.stringify(sourceOnePage(base, n)), n);
const all = () => [1, 2, 3].flatMap((n) => page(n).events);
const byId = (sourceId: string) => all().find((event) => event.sourceId === sourceId)!;

// The sample response of the event sources spec, verbatim.
const SPEC_SAMPLE = `{"events":[{"id":1004,"url":"https://events.source-one.example/event/mini-ramp-mayhem-2026/","html":"<article class=\\"event-card\\" data-event-id=\\"1004\\">\\n  <a class=\\"event-card__link\\" href=\\"https://events.source-one.example/event/mini-ramp-mayhem-2026/\\">\\n    <img class=\\"event-card__image\\" src=\\"https://cdn.source-one.example/uploads/mini-ramp-mayhem-2026.jpg\\" alt=\\"Mini Ramp Mayhem\\" loading=\\"lazy\\">\\n    <h3 class=\\"event-card__title\\">Mini Ramp Mayhem</h3>\\n  </a>\\n  <p class=\\"event-card__date\\"><time class=\\"event-card__start\\" datetime=\\"2026-12-17\\">December 17, 2026 &middot; 11:00 am</time></p>\\n  <p class=\\"event-card__venue\\"><span class=\\"venue-name\\">House Park</span>, <span class=\\"venue-city\\">Austin</span>, <span class=\\"venue-region\\">TX</span></p>\\n</article>"}],"total":1,"page":1,"pages":1}`;

describe('source one connector (JSON pages with HTML cards)', () => {
  it("reads the spec's sample card: slug as sourceId, noon-UTC date, venue, image, winter sports in December", () => {
    const { pages, events, rejected } = parseSourceOnePage(SPEC_SAMPLE, 1);
    expect({ pages, rejected }).toEqual({ pages: 1, rejected: [] });
    expect(events).toEqual([
      {
        title: 'Mini Ramp Mayhem',
        description: null,
        sports: ['snowboarding', 'skiing'],
        startAt: new Date('2026-12-17T12:00:00.000Z'),
        endAt: null,
        timeTba: false,
        isOnline: false,
        venue: { name: 'House Park', city: 'Austin', region: 'TX', country: 'US' },
        organizer: null,
        spectating: null,
        image: 'https://cdn.source-one.example/uploads/mini-ramp-mayhem-2026.jpg',
        series: null,
        source: 'source-one',
        sourceId: 'mini-ramp-mayhem-2026',
        sourceUrl: 'https://events.source-one.example/event/mini-ramp-mayhem-2026/',
      },
    ]);
  });

  it('announces the page count and reads every card of every page', () => {
    expect(page(1).pages).toBe(3);
    expect([1, 2, 3].map((n) => page(n).events.length + page(n).rejected.length)).toEqual([10, 10, 4]);
  });

  it('decodes HTML entities in titles and venue names', () => {
    expect(byId('rock-roll-bowl-jam').title).toBe('Rock & Roll Bowl Jam');
    expect(byId('ladies-clinic-denver').title).toBe('Ladies’ Clinic');
    expect(byId('ramp-raffle-fundraiser').title).toBe('Ramp Raffle "Build It" Fundraiser');
    expect(byId('copa-do-mundo-vert').venue.city).toBe('São Paulo');
  });

  it('takes the sport from the month: November to March is winter, other months skateboarding and BMX', () => {
    expect(byId('whistler-rail-jam').startAt?.toISOString()).toBe('2026-11-12T12:00:00.000Z');
    expect(byId('whistler-rail-jam').sports).toEqual(['snowboarding', 'skiing']);
    expect(byId('holiday-hang').startAt?.getUTCMonth()).toBe(0);
    expect(byId('holiday-hang').sports).toEqual(['snowboarding', 'skiing']);
    expect(byId('mini-ramp-mayhem').sports).toEqual(['skateboarding', 'bmx']);
    expect(byId('summer-street-league').startAt?.toISOString().slice(0, 7)).toBe('2026-04');
    expect(byId('summer-street-league').sports).toEqual(['skateboarding', 'bmx']);
  });

  it('reads multi-day events, "Time TBA", online events, a venue without a city and non-U.S. venues', () => {
    expect(byId('vans-park-series-qualifier')).toMatchObject({
      startAt: new Date('2026-08-14T12:00:00Z'),
      endAt: new Date('2026-08-16T12:00:00Z'),
      timeTba: false,
    });
    expect(byId('rock-roll-bowl-jam').timeTba).toBe(true);
    expect(byId('trick-tips-live-kickflip')).toMatchObject({
      isOnline: true,
      venue: { name: null, city: null, region: null, country: null },
    });
    expect(byId('backyard-bowl-session').venue).toEqual({
      name: 'Secret Backyard Bowl',
      city: null,
      region: null,
      country: 'US',
    });
    expect(byId('whistler-rail-jam').venue).toEqual({
      name: 'Skier’s Plaza',
      city: 'Whistler',
      region: null,
      country: 'Canada',
    });
  });

  it('sets aside a card whose date is not a calendar date, naming it, instead of failing the page', () => {
    expect(page(3).rejected).toEqual([
      { sourceId: 'ghost-jam', reason: 'start date "2026-13-01" is not a calendar date' },
    ]);
  });

  it('refuses a page whose cards lost the fixed structure, naming what is missing', () => {
    expect(() => parseSourceOnePage(JSON.stringify(sourceOneShapeChangedPage(base, 2)), 2)).toThrow(
      new ShapeError('source-one', 'page 2 events[0]: the article.event-card element'),
    );
    const noTitle = JSON.stringify(sourceOnePage(base, 1)).replaceAll('event-card__title', 'event-card__name');
    expect(() => parseSourceOnePage(noTitle, 1)).toThrow(/events\[0\]: the \.event-card__title text/);
    const noStart = JSON.stringify(sourceOnePage(base, 1)).replaceAll('event-card__start', 'event-card__begin');
    expect(() => parseSourceOnePage(noStart, 1)).toThrow(/event-card__start datetime/);
  });

  it('refuses a page without its events array or page count, or that is not JSON', () => {
    expect(() => parseSourceOnePage('<html>Maintenance</html>', 1)).toThrow(
      'source-one: unexpected upstream shape: page 1 is not JSON',
    );
    expect(() => parseSourceOnePage('{"data":[],"pages":1}', 1)).toThrow(/no "events" array/);
    expect(() => parseSourceOnePage('{"events":[]}', 1)).toThrow(/no "pages" count/);
    expect(() => parseSourceOnePage('{"events":[{"url":"https://x.example/e/a/"}],"pages":1}', 1)).toThrow(
      /no "html" string/,
    );
  });
});
