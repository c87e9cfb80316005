import type { EventDoc } from '../worker/events/documents';

// The demo events of scripts/seed-events.ts: where and when, relative to today.

type Venue = NonNullable<EventDoc['venue']>;

export const VENUES: Record<string, Venue> = {
  austin: { name: 'House Park', city: 'Austin', region: 'TX', country: 'US', lat: 30.2747, lng: -97.7526 },
  la: { name: 'Venice Beach Skatepark', city: 'Los Angeles', region: 'CA', country: 'US', lat: 33.985, lng: -118.4729 },
  portland: { name: 'Burnside', city: 'Portland', region: 'OR', country: 'US', lat: 45.5226, lng: -122.6655 },
  greenville: {
    name: 'Fairgrounds Trails',
    city: 'Greenville',
    region: 'NC',
    country: 'US',
    lat: 35.6127,
    lng: -77.3664,
  },
  berlin: { name: 'Mellowpark', city: 'Berlin', region: null, country: 'Germany', lat: 52.4582, lng: 13.5408 },
  barcelona: { name: 'MACBA', city: 'Barcelona', region: null, country: 'Spain', lat: 41.3833, lng: 2.1667 },
  mammoth: {
    name: 'Mammoth Mountain',
    city: 'Mammoth Lakes',
    region: 'CA',
    country: 'US',
    lat: 37.6308,
    lng: -119.0326,
  },
  laax: { name: 'Laax Snowpark', city: 'Laax', region: null, country: 'Switzerland', lat: 46.8096, lng: 9.2584 },
  tokyo: {
    name: 'Ariake Urban Sports Park',
    city: 'Tokyo',
    region: null,
    country: 'Japan',
    lat: 35.6368,
    lng: 139.7914,
  },
  orlando: {
    name: 'Orlando Watersports Complex',
    city: 'Orlando',
    region: 'FL',
    country: 'US',
    lat: 28.4114,
    lng: -81.3923,
  },
};

/** One demo event: `day` counts UTC days from today; `days` makes it multi-day. */
export interface DemoEvent {
  title: string;
  day: number | null;
  days?: number;
  sports: string[];
  venue?: keyof typeof VENUES;
  extra?: Partial<EventDoc>;
}

export const DEMO_EVENTS: DemoEvent[] = [
  {
    title: 'Bowl Bash',
    day: -40,
    sports: ['skateboarding'],
    venue: 'portland',
    extra: { status: 'completed', resultsUrl: 'https://events.example/bowl-bash/results' },
  },
  {
    title: 'Winter Rail Jam',
    day: -21,
    sports: ['snowboarding', 'skiing'],
    venue: 'mammoth',
    extra: { status: 'completed' },
  },
  {
    title: 'Dirt Tour Stop 1',
    day: -14,
    sports: ['bmx'],
    venue: 'greenville',
    extra: { series: 'Dirt Tour', status: 'completed' },
  },
  {
    title: 'Community Skate Night',
    day: -7,
    sports: ['skateboarding'],
    venue: 'austin',
    extra: { series: 'Community Skate Nights', status: 'completed' },
  },
  {
    title: 'Mini Ramp Mayhem',
    day: -3,
    sports: ['skateboarding', 'bmx'],
    venue: 'austin',
    extra: { status: 'completed' },
  },
  { title: 'Park Session Berlin', day: -1, sports: ['bmx'], venue: 'berlin' },
  {
    title: 'Go Skate Day Jam',
    day: 0,
    sports: ['skateboarding'],
    venue: 'la',
    extra: { spectating: { inPerson: true } },
  },
  {
    title: 'Online Trick Battle',
    day: 0,
    days: 3,
    sports: ['skateboarding'],
    extra: {
      isOnline: true,
      intents: ['compete', 'spectate_online'],
      spectating: { streamUrl: 'https://stream.example/trick-battle', streamStatus: 'live' },
    },
  },
  {
    title: 'Street League Qualifier',
    day: 1,
    sports: ['skateboarding'],
    venue: 'la',
    extra: { intents: ['compete'], participation: { registrationStatus: 'closed' } },
  },
  { title: 'Snowpark Opening Weekend', day: 2, days: 2, sports: ['snowboarding', 'skiing'], venue: 'laax' },
  {
    title: 'Pro Dirt Invitational',
    day: 3,
    sports: ['bmx'],
    venue: 'greenville',
    extra: {
      series: 'Dirt Tour',
      timeTba: true,
      level: ['invite-only'],
      intents: ['spectate_in_person'],
      eventKinds: ['contest'],
      spectating: { inPerson: true, ticketUrl: 'https://tickets.example/pro-dirt' },
    },
  },
  {
    title: 'Ladies Clinic',
    day: 4,
    sports: ['skateboarding'],
    venue: 'portland',
    extra: {
      participation: {
        registrationStatus: 'open',
        registrationUrl: 'https://events.example/ladies-clinic',
        priceText: 'Free',
      },
    },
  },
  {
    title: 'Community Skate Night',
    day: 7,
    sports: ['skateboarding'],
    venue: 'austin',
    extra: { series: 'Community Skate Nights' },
  },
  {
    title: 'Cable Park Jam',
    day: 8,
    sports: ['wakeboarding'],
    venue: 'orlando',
    extra: { intents: ['compete'], participation: { registrationStatus: 'open' } },
  },
  {
    title: 'MACBA Best Trick',
    day: 9,
    sports: ['skateboarding'],
    venue: 'barcelona',
    extra: { spectating: { inPerson: true } },
  },
  {
    title: 'Flatland Fundamentals Webinar',
    day: 10,
    sports: ['bmx'],
    extra: { isOnline: true, intents: ['spectate_online'] },
  },
  {
    title: 'Dirt Tour Stop 2',
    day: 12,
    sports: ['bmx'],
    venue: 'greenville',
    extra: { series: 'Dirt Tour', timeTba: true, eventKinds: ['contest'] },
  },
  {
    title: 'Mammoth Slopestyle Open',
    day: 13,
    days: 3,
    sports: ['snowboarding', 'skiing'],
    venue: 'mammoth',
    extra: { intents: ['compete', 'spectate_in_person'], participation: { registrationStatus: 'open' } },
  },
  {
    title: 'Tokyo Park Series',
    day: 15,
    sports: ['skateboarding', 'bmx'],
    venue: 'tokyo',
    extra: { series: 'Tokyo Park Series' },
  },
  {
    title: 'Berlin Bowl Contest',
    day: 17,
    sports: ['skateboarding'],
    venue: 'berlin',
    extra: { intents: ['compete'], participation: { registrationStatus: 'upcoming' } },
  },
  { title: 'Rock & Roll Jam', day: 20, sports: ['skateboarding'], venue: 'austin' },
  {
    title: 'Community Build Day',
    day: 22,
    sports: ['skateboarding', 'bmx'],
    venue: 'portland',
    extra: { series: 'Community Build Days' },
  },
  { title: 'Night Rail Session', day: 25, sports: ['snowboarding'], venue: 'laax' },
  { title: 'Wake the Lake', day: 28, days: 2, sports: ['wakeboarding'], venue: 'orlando' },
  { title: 'Spring Slush Cup', day: 45, sports: ['snowboarding', 'skiing'], venue: 'mammoth' },
  {
    title: 'Summer Street Series',
    day: 60,
    sports: ['skateboarding'],
    venue: 'barcelona',
    extra: { series: 'Summer Street Series' },
  },
  {
    title: 'BMX Park Worlds',
    day: 90,
    days: 4,
    sports: ['bmx'],
    venue: 'tokyo',
    extra: { intents: ['compete', 'spectate_in_person', 'spectate_online'] },
  },
  { title: 'Flow Park Jam', day: 5, sports: ['skateboarding'], venue: 'la', extra: { timeTba: true } },
  {
    title: 'Backcountry Splitboard Meetup',
    day: 11,
    sports: ['snowboarding'],
    venue: 'laax',
    extra: { series: 'Community Meetups' },
  },
  // Date not announced yet: reachable by slug, in no date window.
  { title: 'Vert Legends Reunion', day: null, sports: ['skateboarding'], venue: 'la', extra: { timeTba: true } },
];
