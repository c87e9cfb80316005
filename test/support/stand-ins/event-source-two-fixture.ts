import { dayOf, longDate } from './event-fixture-dates';

// Source two as the event sources spec fixes it: an HTML page whose `__NEXT_DATA__` script holds the events.

interface Item {
  id: number;
  /** As upstream writes it, entities included. */
  title: string;
  description: string;
  start: number | null;
  end?: number;
  location: string | null;
  venueName: string | null;
  series?: string;
  verified?: boolean;
}

// biome-ignore format: one row per event
export const SOURCE_TWO_ITEMS: Item[] = [
  { id: 48244, title: 'Pro Dirt Invitational', description: 'Invite-only pro BMX dirt jumping contest. Spectators welcome, tickets at the gate.', start: 40, location: 'Greenville, NC', venueName: 'Fairgrounds Trails', series: 'Dirt Tour', verified: true },
  { id: 48245, title: 'Rock &amp; Roll Bowl Jam', description: 'Open bowl jam for all ages. Register at the shop; spectators welcome.', start: 45, location: 'Austin, TX', venueName: 'Mabel Davis Skatepark' },
  { id: 48246, title: 'Mini Ramp Mayhem', description: 'Mini ramp jam with cash for tricks. Sign up on the day.', start: 20, location: 'Austin, TX', venueName: 'House Park', series: 'Texas Ramp Series', verified: true },
  { id: 48247, title: 'Street League Tryouts', description: 'Open qualifier for street skaters. Registration opens soon.', start: null, location: 'Los Angeles, CA', venueName: 'Courthouse Plaza' },
  { id: 48248, title: 'Flatland Fundamentals', description: 'BMX flatland clinic for beginners. Bring a bike with pegs.', start: null, location: 'Rockville, MD', venueName: 'Rockville BMX' },
  { id: 48249, title: 'Texas BMX State Championships', description: 'Three days of BMX racing. Spectators free; live stream on our channel.', start: 70, end: 72, location: 'Houston, TX', venueName: 'Houston BMX Track', series: 'USA BMX', verified: true },
  { id: 48250, title: 'Copenhagen Pro', description: 'Invitational street contest, livestreamed worldwide.', start: 110, end: 113, location: 'Copenhagen, Denmark', venueName: 'Fælledparken', verified: true },
  { id: 48251, title: 'Barcelona Street Jam', description: 'Street jam at MACBA. Come watch.', start: 85, location: 'Barcelona, Spain', venueName: 'MACBA' },
  { id: 48252, title: 'Virtual Best Trick Contest', description: 'Send a clip; winners announced on a live stream.', start: 15, location: 'Online', venueName: null },
  { id: 48253, title: 'Community Build Day', description: 'Help pour the new DIY bowl. Everyone welcome.', start: 8, location: null, venueName: 'DIY Spot' },
  { id: 48254, title: 'Girls Skate Night &amp; BBQ', description: 'Girls&#8217; session and barbecue, all levels.', start: 18, location: 'Oakland, CA', venueName: 'Town Park', series: 'Girls Skate Nights' },
  { id: 48255, title: 'Winter Warm-Up Jam', description: 'Indoor park jam. Sign-ups at the door.', start: -50, location: 'Minneapolis, MN', venueName: '3rd Lair' },
  { id: 48256, title: 'Vert Attack', description: 'Pro vert contest on the big ramp. Tickets on sale now.', start: 95, location: 'Malmö, Sweden', venueName: 'Bryggeriet', verified: true },
  { id: 48257, title: 'Bowl Bash Finals', description: 'Season finals of the bowl series; qualified riders only, by invitation.', start: 140, location: 'San Diego, CA', venueName: 'Encinitas YMCA', series: 'Bowl Bash' },
  { id: 48258, title: 'Trails Day', description: 'BMX trails session and demo by the local crew.', start: -20, location: 'Asheville, NC', venueName: 'Ramp Trails' },
  { id: 48259, title: 'Park Premiere Night', description: 'Premiere of the shop video at the park, free entry.', start: 30, location: 'Richmond, VA', venueName: 'Texas Beach Park' },
  { id: 48260, title: 'Skate Camp Open Day', description: 'Camp open day with lessons for kids.', start: 35, end: 36, location: 'Woodward, PA', venueName: 'Woodward Camp' },
  { id: 48261, title: 'Mellow Monday Meetup', description: 'Weekly meetup for adult beginners.', start: 3, location: 'Brooklyn, NY', venueName: 'Owl&#39;s Head' },
  { id: 48262, title: 'Desert Dirt Classic', description: 'Open BMX dirt contest, entry fee at registration.', start: 165, end: 166, location: 'Phoenix, AZ', venueName: 'Desert Trails' },
  { id: 48263, title: 'Mexico City Skate Fest', description: 'Skate festival with a street contest and live music.', start: 120, location: 'Mexico City, Mexico', venueName: 'Parque Lindbergh' },
  { id: 48264, title: 'Halfpipe Heroes', description: 'Skate and BMX vert demo, live stream and tickets.', start: 190, location: 'Vancouver, Canada', venueName: 'Hastings Park' },
  { id: 48265, title: 'Late Summer Slappy Session', description: 'Curb session, all welcome.', start: -10, location: 'Denver, CO', venueName: 'Curb City' },
];

function item(entry: Item, base: Date) {
  const startDate = entry.start === null ? null : dayOf(base, entry.start);
  const endDate = entry.end === undefined ? null : dayOf(base, entry.end);
  return {
    id: entry.id,
    title: entry.title,
    slug: entry.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    description: entry.description,
    startDate,
    endDate,
    dateText: startDate ? longDate(startDate) + (endDate ? ` – ${longDate(endDate)}` : '') : 'TBA',
    location: entry.location,
    venueName: entry.venueName,
    url: `/events/${entry.id}`,
    image: `https://images.source-two.example/events/${entry.id}/cover.jpg`,
    series: entry.series ?? null,
    organizer: { name: entry.verified ? 'Source Two Events' : 'Community listing', verified: entry.verified === true },
  };
}

function page(pageProps: unknown): string {
  const data = { props: { pageProps }, page: '/events', query: {}, buildId: 'b1X9kq', isFallback: false, gssp: true };
  // As Next.js escapes it: no "</script>" can close the script early.
  const json = JSON.stringify(data).replaceAll('<', '\\u003c');
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Events | Source Two</title></head>',
    '<body><div id="__next"><main><h1>Upcoming events</h1><ul class="events"><li>…</li></ul></main></div>',
    `<script id="__NEXT_DATA__" type="application/json">${json}</script>`,
    '<script src="/_next/static/chunks/main.js" defer=""></script></body></html>',
  ].join('\n');
}

export function sourceTwoPage(base: Date, items = SOURCE_TWO_ITEMS): string {
  return page({ events: items.map((entry) => item(entry, base)), total: items.length });
}

/** After an upstream rewrite: the events moved into a query cache, so props.pageProps.events is gone. */
export function sourceTwoShapeChangedPage(base: Date): string {
  const events = SOURCE_TWO_ITEMS.map((entry) => item(entry, base));
  return page({ dehydratedState: { queries: [{ queryKey: ['events'], state: { data: { events } } }] } });
}

/** After an upstream format change: every date written `DD/MM/YYYY`, which the connector cannot read. */
export function sourceTwoReformattedDatesPage(base: Date): string {
  const reformat = (day: string | null) => (day ? day.split('-').reverse().join('/') : day);
  const events = SOURCE_TWO_ITEMS.map((entry) => item(entry, base)).map((event) => ({
    ...event,
    startDate: reformat(event.startDate),
    endDate: reformat(event.endDate),
  }));
  return page({ events, total: events.length });
}

/** `count` plain events over the next year, for the ingestion bench. */
export function generatedItems(count: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 900_000 + i,
    title: `Generated Jam ${i}`,
    description: 'Open street jam, register on the day.',
    start: (i * 5) % 365,
    location: `Town ${i % 60}, TX`,
    venueName: `Lot ${i % 30}`,
  }));
}

/** Listings also in source one (same title, day and city): stored once. */
export const SOURCE_TWO_FACTS = { items: SOURCE_TWO_ITEMS.length, alsoInSourceOne: 2 };
