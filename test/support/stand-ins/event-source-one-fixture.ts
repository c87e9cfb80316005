import { dayOf, longDate } from './event-fixture-dates';

// Source one as the event sources spec fixes it: `?page=N` JSON pages whose items embed HTML cards.

type Venue = { name: string; city?: string; region?: string; country?: string } | 'online';
interface Card {
  id: number;
  slug: string;
  /** As upstream writes it: HTML, entities included. */
  title: string;
  start: number | string;
  end?: number;
  time: string;
  venue: Venue;
}

const US = (name: string, city: string, region: string): Venue => ({ name, city, region });

// biome-ignore format: one row per event
export const SOURCE_ONE_CARDS: Card[] = [
  { id: 1004, slug: 'mini-ramp-mayhem', title: 'Mini Ramp Mayhem', start: 20, time: '11:00 am', venue: US('House Park', 'Austin', 'TX') },
  { id: 1005, slug: 'rock-roll-bowl-jam', title: 'Rock &amp; Roll Bowl Jam', start: 45, time: 'Time TBA', venue: US('Mabel Davis Skatepark', 'Austin', 'TX') },
  { id: 1006, slug: 'ladies-clinic-denver', title: 'Ladies&#8217; Clinic', start: 12, time: '10:00 am', venue: US('Denver Skatepark', 'Denver', 'CO') },
  { id: 1007, slug: 'vans-park-series-qualifier', title: 'Vans Park Series Qualifier', start: 60, end: 62, time: '9:00 am', venue: US('Vans Off The Wall', 'Huntington Beach', 'CA') },
  { id: 1008, slug: 'trick-tips-live-kickflip', title: 'Trick Tips Live: Kickflip Clinic', start: 5, time: '6:00 pm', venue: 'online' },
  { id: 1009, slug: 'backyard-bowl-session', title: 'Backyard Bowl Session', start: 33, time: 'Time TBA', venue: { name: 'Secret Backyard Bowl' } },
  { id: 1010, slug: 'bowl-a-rama-bondi', title: 'Bowl-a-Rama Bondi', start: 90, end: 91, time: '10:00 am', venue: { name: 'Bondi Bowl', city: 'Sydney', country: 'Australia' } },
  { id: 1011, slug: 'whistler-rail-jam', title: 'Whistler Rail Jam', start: 150, time: '7:00 pm', venue: { name: 'Skier&#8217;s Plaza', city: 'Whistler', country: 'Canada' } },
  { id: 1012, slug: 'spring-slam', title: 'Spring Slam', start: -40, time: '12:00 pm', venue: US('Burnside', 'Portland', 'OR') },
  { id: 1013, slug: 'summer-street-league', title: 'Summer Street League', start: -70, end: -68, time: '1:00 pm', venue: US('Grant Park Plaza', 'Chicago', 'IL') },
  { id: 1014, slug: 'skate-camp-week', title: 'Skate Camp Week', start: -3, end: 3, time: '9:00 am', venue: US('Woodward Camp', 'Woodward', 'PA') },
  { id: 1015, slug: 'dew-tour-qualifier', title: 'Dew Tour Qualifier', start: 100, time: '10:00 am', venue: US('Long Beach Plaza', 'Long Beach', 'CA') },
  { id: 1016, slug: 'go-skateboarding-day-nyc', title: 'Go Skateboarding Day NYC', start: 130, time: 'Time TBA', venue: US('LES Skatepark', 'New York', 'NY') },
  { id: 1017, slug: 'night-sesh-at-fdr', title: 'Night Sesh at FDR', start: -15, time: '8:00 pm', venue: US('FDR Skatepark', 'Philadelphia', 'PA') },
  { id: 1018, slug: 'big-air-bash', title: 'Big Air Bash', start: 120, end: 121, time: '11:00 am', venue: US('Mammoth Mountain', 'Mammoth Lakes', 'CA') },
  { id: 1019, slug: 'park-city-pipe-party', title: 'Park City Pipe Party', start: 160, time: '10:30 am', venue: US('Park City Mountain', 'Park City', 'UT') },
  { id: 1020, slug: 'tokyo-street-open', title: 'Tokyo Street Open', start: 75, time: '2:00 pm', venue: { name: 'Murasaki Park', city: 'Tokyo', country: 'Japan' } },
  { id: 1021, slug: 'flatland-friday', title: 'Flatland Friday &ndash; Round 3', start: 26, time: '7:00 pm', venue: US('Rockville BMX', 'Rockville', 'MD') },
  { id: 1022, slug: 'ramp-raffle-fundraiser', title: 'Ramp Raffle &quot;Build It&quot; Fundraiser', start: 52, time: 'Time TBA', venue: US('Lot 11', 'Seattle', 'WA') },
  { id: 1023, slug: 'heatwave-bmx-jam', title: 'Heatwave BMX Jam', start: -25, time: '4:00 pm', venue: US('Ray&#39;s Park', 'Cleveland', 'OH') },
  { id: 1024, slug: 'copa-do-mundo-vert', title: 'Copa do Mundo Vert', start: 180, end: 182, time: '3:00 pm', venue: { name: 'Pista de Vert', city: 'S&atilde;o Paulo', country: 'Brazil' } },
  { id: 1025, slug: 'holiday-hang', title: 'Holiday Hang', start: 200, time: 'Time TBA', venue: US('Kona Skatepark', 'Jacksonville', 'FL') },
  { id: 1026, slug: 'ghost-jam', title: 'Ghost Jam', start: '2026-13-01', time: 'Time TBA', venue: US('Nowhere Park', 'Reno', 'NV') },
];

/** Listed twice: upstream pages shift while new events arrive, so page 3 repeats an item of page 1. */
const REPEATED_ID = 1013;
export const SOURCE_ONE_PAGE_SIZE = 10;

export function sourceOneUrl(card: Card): string {
  return `https://events.source-one.example/event/${card.slug}/`;
}

function venueHtml(venue: Venue): string {
  if (venue === 'online') return '<p class="event-card__venue event-card__venue--online">Online</p>';
  const parts = [`<span class="venue-name">${venue.name}</span>`];
  if (venue.city) parts.push(`<span class="venue-city">${venue.city}</span>`);
  if (venue.region) parts.push(`<span class="venue-region">${venue.region}</span>`);
  if (venue.country) parts.push(`<span class="venue-country">${venue.country}</span>`);
  return `<p class="event-card__venue">${parts.join(', ')}</p>`;
}

export function cardHtml(card: Card, base: Date): string {
  const start = typeof card.start === 'number' ? dayOf(base, card.start) : card.start;
  const startText = /^\d{4}-\d{2}-\d{2}$/.test(start) && !start.includes('-13-') ? longDate(start) : 'TBA';
  const end = card.end === undefined ? '' : dayOf(base, card.end);
  const endHtml = end ? ` &ndash; <time class="event-card__end" datetime="${end}">${longDate(end)}</time>` : '';
  return [
    `<article class="event-card" data-event-id="${card.id}">`,
    `  <a class="event-card__link" href="${sourceOneUrl(card)}">`,
    `    <img class="event-card__image" src="https://cdn.source-one.example/uploads/${card.slug}.jpg" alt="${card.title}" loading="lazy">`,
    `    <h3 class="event-card__title">${card.title}</h3>`,
    '  </a>',
    `  <p class="event-card__date"><time class="event-card__start" datetime="${start}">${startText} &middot; ${card.time}</time>${endHtml}</p>`,
    `  ${venueHtml(card.venue)}`,
    '</article>',
  ].join('\n');
}

/** The listing's items in upstream order, the repeat included. */
function listing(cards: Card[]): Card[] {
  const repeat = cards.find((card) => card.id === REPEATED_ID);
  const items = [...cards];
  if (repeat) items.splice(SOURCE_ONE_PAGE_SIZE * 2, 0, repeat);
  return items;
}

/** Page `page` (from 1) of a listing, as the JSON body source one answers. */
export function sourceOnePage(base: Date, page: number, cards = SOURCE_ONE_CARDS, pageSize = SOURCE_ONE_PAGE_SIZE) {
  const items = cards === SOURCE_ONE_CARDS ? listing(cards) : cards;
  const pages = Math.ceil(items.length / pageSize);
  const events = items
    .slice((page - 1) * pageSize, page * pageSize)
    .map((card) => ({ id: card.id, url: sourceOneUrl(card), html: cardHtml(card, base) }));
  return { events, total: items.length, page, pages };
}

/** `count` plain events spread over the next year, for the ingestion bench. */
export function generatedCards(count: number): Card[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 100_000 + i,
    slug: `generated-session-${i}`,
    title: `Generated Session ${i}`,
    start: (i * 7) % 365,
    time: '10:00 am',
    venue: US(`Park ${i % 50}`, `City ${i % 80}`, 'CA'),
  }));
}

/** The same listing after an upstream redesign: page 2's cards use new markup, page 1 is unchanged. */
export function sourceOneShapeChangedPage(base: Date, page: number) {
  const body = sourceOnePage(base, page);
  if (page !== 2) return body;
  const events = body.events.map((event) => ({
    ...event,
    html: event.html
      .replaceAll('<article class="event-card"', '<div class="tribe-events-calendar-list__event"')
      .replaceAll('</article>', '</div>')
      .replaceAll('event-card__title', 'tribe-events-calendar-list__event-title'),
  }));
  return { ...body, events };
}

/** Items in the fixture listing, items whose values are unusable, and listings repeated. */
export const SOURCE_ONE_FACTS = { items: SOURCE_ONE_CARDS.length + 1, rejected: 1, repeats: 1 };
