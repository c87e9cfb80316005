import { describe, expect, it } from 'vitest';
import { inferFromText } from '../../../worker/events/ingestion/inference';
import { parseSourceTwoPage, splitLocation } from '../../../worker/events/ingestion/source-two';
import { fixtureBase } from '../../support/stand-ins/event-fixture-dates';
import { sourceTwoPage, sourceTwoShapeChangedPage } from '../../support/stand-ins/event-source-two-fixture';

const base = fixtureBase(new Date('2026-06-15T08:00:00Z'));
const URL_TWO = 'https://www.source-two.example/events?region=all';
const events = () => parseSourceTwoPage(sourceTwoPage(base), URL_TWO).events;
const byId = (id: number) => events().find((event) => event.sourceId === String(id))!;

// The sample item of the event sources spec, verbatim, in the page around it.
const SPEC_ITEM = {
  id: 48244,
  title: 'Pro Dirt Invitational',
  slug: 'pro-dirt-invitational',
  description: 'Invite-only pro BMX dirt jumping contest. Spectators welcome, tickets at the gate.',
  startDate: '2027-01-06',
  endDate: null,
  dateText: 'January 6, 2027',
  location: 'Greenville, NC',
  venueName: 'Fairgrounds Trails',
  url: '/events/48244',
  image: 'https://images.source-two.example/events/48244/cover.jpg',
  series: 'Dirt Tour',
  organizer: { name: 'Source Two Events', verified: true },
};
const specPage = (pageProps: unknown) =>
  `<html><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
    props: { pageProps },
    page: '/events',
    query: {},
    buildId: 'x',
    isFallback: false,
    gssp: true,
  })}</script></body></html>`;

describe('source two connector (page data in __NEXT_DATA__)', () => {
  it("reads the spec's sample item: numeric id as identity and link, timeTba, U.S. split, inferred kind, BMX, level and intent", () => {
    const {
      events: [event],
      rejected,
    } = parseSourceTwoPage(specPage({ events: [SPEC_ITEM], total: 1 }), URL_TWO);
    expect(rejected).toEqual([]);
    expect(event).toEqual({
      title: 'Pro Dirt Invitational',
      description: 'Invite-only pro BMX dirt jumping contest. Spectators welcome, tickets at the gate.',
      sports: ['bmx'],
      startAt: new Date('2027-01-06T12:00:00.000Z'),
      endAt: null,
      timeTba: true,
      isOnline: false,
      venue: { name: 'Fairgrounds Trails', city: 'Greenville', region: 'NC', country: 'US' },
      organizer: { name: 'Source Two Events', verified: true },
      spectating: { inPerson: true },
      image: 'https://images.source-two.example/events/48244/cover.jpg',
      series: 'Dirt Tour',
      source: 'source-two',
      sourceId: '48244',
      sourceUrl: 'https://www.source-two.example/events/48244',
      disciplines: ['dirt'],
      eventKinds: ['contest'],
      intents: ['spectate_in_person'],
      level: 'invite-only',
      sourceTrust: 0.9,
    });
  });

  it('reads every item of the fixture page, TBA dates as no date and multi-day events with their end', () => {
    expect(events()).toHaveLength(22);
    expect(byId(48247)).toMatchObject({ startAt: null, endAt: null, timeTba: true });
    expect(byId(48249)).toMatchObject({
      startAt: new Date('2026-08-24T12:00:00Z'),
      endAt: new Date('2026-08-26T12:00:00Z'),
      sports: ['bmx'],
      eventKinds: ['contest', 'race'],
      intents: ['compete', 'spectate_in_person', 'spectate_online'],
    });
  });

  it('decodes HTML entities in titles and descriptions', () => {
    expect(byId(48245).title).toBe('Rock & Roll Bowl Jam');
    expect(byId(48254)).toMatchObject({
      title: 'Girls Skate Night & BBQ',
      description: 'Girls’ session and barbecue, all levels.',
    });
  });

  it('splits "City, ST" into a U.S. city and region, keeps "City, Country", and reads Online and a missing location', () => {
    expect(splitLocation('Austin, TX', 'House Park').venue).toEqual({
      name: 'House Park',
      city: 'Austin',
      region: 'TX',
      country: 'US',
    });
    expect(splitLocation('Copenhagen, Denmark', null).venue).toEqual({
      name: null,
      city: 'Copenhagen',
      region: null,
      country: 'Denmark',
    });
    expect(splitLocation('Washington, DC', null).venue).toMatchObject({ region: 'DC', country: 'US' });
    expect(splitLocation('Online', null)).toEqual({
      venue: { name: null, city: null, region: null, country: null },
      online: true,
    });
    expect(byId(48252)).toMatchObject({ isOnline: true, intents: ['compete', 'spectate_online'] });
    expect(byId(48253).venue).toEqual({ name: 'DIY Spot', city: null, region: null, country: null });
  });

  it('infers level, intents and BMX inclusion from title and description', () => {
    expect(inferFromText('Open street jam', 'Register on the day.', false)).toMatchObject({
      sports: ['skateboarding'],
      level: 'open',
      intents: ['compete'],
      eventKinds: ['jam'],
      disciplines: ['street'],
    });
    expect(inferFromText('Halfpipe Heroes', 'Skate and BMX vert demo, live stream and tickets.', false)).toMatchObject({
      sports: ['skateboarding', 'bmx'],
      eventKinds: ['demo'],
      intents: ['spectate_in_person', 'spectate_online'],
    });
    expect(inferFromText('Bowl Bash Finals', 'qualified riders only, by invitation.', false)).toMatchObject({
      level: 'invite-only',
      intents: [],
    });
    expect(byId(48250).level).toBe('invite-only');
    expect(byId(48255).sourceTrust).toBe(0.6);
  });

  it('sets aside an item whose date is not a calendar date, naming it', () => {
    const page = specPage({ events: [{ ...SPEC_ITEM, startDate: '2027-02-30' }] });
    expect(parseSourceTwoPage(page, URL_TWO)).toEqual({
      events: [],
      rejected: [{ sourceId: '48244', reason: 'startDate "2027-02-30" is not a calendar date' }],
    });
  });

  it('refuses a page whose page data lost the fixed structure, naming what is missing', () => {
    expect(() => parseSourceTwoPage(sourceTwoShapeChangedPage(base), URL_TWO)).toThrow(
      'source-two: unexpected upstream shape: __NEXT_DATA__ has no props.pageProps.events array',
    );
    expect(() => parseSourceTwoPage('<html><body>Hi</body></html>', URL_TWO)).toThrow(/no <script id="__NEXT_DATA__">/);
    const { startDate: _, ...noStart } = SPEC_ITEM;
    expect(() => parseSourceTwoPage(specPage({ events: [noStart] }), URL_TWO)).toThrow(
      'props.pageProps.events[0] has no "startDate" (a date or null)',
    );
    expect(() => parseSourceTwoPage(specPage({ events: [{ ...SPEC_ITEM, id: '48244' }] }), URL_TWO)).toThrow(
      /numeric "id"/,
    );
  });
});
