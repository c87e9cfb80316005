import { decodeHTML } from 'entities';
import { DomUtils, parseDocument } from 'htmlparser2';
import { US_STATE_CODES } from '../../platform/sports';
import { dayAtNoonUtc } from '../catalog/identity';
import type { NormalizedEvent, RejectedItem } from './event-record';
import { inferFromText } from './inference';
import { rememberRaw } from './raw-payload';
import { isRecord, ShapeError } from './shape-error';
import { fetchText } from './upstream';

// Connector two (the event sources spec, "Source two"): the events from the page data a
// server-rendered page embeds in <script id="__NEXT_DATA__">, not from its visible markup.

export const SOURCE_TWO = 'source-two';

/** How far the app trusts a listing: a verified organizer's own listing more than a community one. */
const TRUST = { verifiedOrganizer: 0.9, unverified: 0.6 } as const;

type Venue = NormalizedEvent['venue'];

/** "City, ST" is the U.S. (country US); "City, Country" elsewhere; "Online" is no place. */
export function splitLocation(location: string | null, venueName: string | null): { venue: Venue; online: boolean } {
  const text = location?.trim() ?? '';
  if (/^online$/i.test(text)) return { venue: { name: null, city: null, region: null, country: null }, online: true };
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const last = parts.length > 1 ? parts.at(-1)! : null;
  const city = parts.length ? parts.slice(0, parts.length > 1 ? -1 : 1).join(', ') : null;
  const isUs = last !== null && US_STATE_CODES.has(last.toUpperCase()) && last.length === 2;
  return {
    venue: {
      name: venueName,
      city,
      region: isUs ? last.toUpperCase() : null,
      country: isUs ? 'US' : last,
    },
    online: false,
  };
}

const optionalString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? decodeHTML(value).trim() : null;

function dayField(item: Record<string, unknown>, field: 'startDate' | 'endDate', where: string) {
  const value = item[field];
  if (value === null || (field === 'endDate' && value === undefined)) return { date: null };
  if (typeof value !== 'string') throw new ShapeError(SOURCE_TWO, `${where} has no "${field}" (a date or null)`);
  const date = dayAtNoonUtc(value);
  return date ? { date } : { bad: `${field} "${value}" is not a calendar date` };
}

function parseItem(
  item: unknown,
  where: string,
  base: string,
): { event: NormalizedEvent } | { rejected: RejectedItem } {
  if (!isRecord(item)) throw new ShapeError(SOURCE_TWO, `${where} is not an object`);
  if (typeof item.id !== 'number' || !Number.isInteger(item.id))
    throw new ShapeError(SOURCE_TWO, `${where} has no numeric "id"`);
  const title = optionalString(item.title);
  if (!title) throw new ShapeError(SOURCE_TWO, `${where} has no "title"`);
  const sourceId = String(item.id);
  const start = dayField(item, 'startDate', where);
  const end = dayField(item, 'endDate', where);
  if ('bad' in start) return { rejected: { sourceId, reason: start.bad! } };
  if ('bad' in end) return { rejected: { sourceId, reason: end.bad! } };
  const description = optionalString(item.description);
  const { venue, online } = splitLocation(optionalString(item.location), optionalString(item.venueName));
  const inferred = inferFromText(title, description, online);
  const organizer = isRecord(item.organizer)
    ? { name: optionalString(item.organizer.name), verified: item.organizer.verified === true }
    : null;
  return {
    event: {
      title,
      description,
      sports: inferred.sports,
      startAt: start.date,
      endAt: end.date,
      // The page data carries no clock times (the interface spec: connector two sets timeTba).
      timeTba: true,
      isOnline: online,
      venue,
      organizer,
      spectating: { inPerson: inferred.intents.includes('spectate_in_person') },
      image: optionalString(item.image),
      series: optionalString(item.series),
      source: SOURCE_TWO,
      sourceId,
      // The numeric id is the identity and forms the link (the interface spec).
      sourceUrl: new URL(`/events/${sourceId}`, base).href,
      disciplines: inferred.disciplines,
      eventKinds: inferred.eventKinds,
      intents: inferred.intents,
      level: inferred.level,
      sourceTrust: organizer?.verified ? TRUST.verifiedOrganizer : TRUST.unverified,
    },
  };
}

/** The page's HTML: its events, or a ShapeError naming the part of the page data that is missing. */
export function parseSourceTwoPage(
  html: string,
  base: string,
): { events: NormalizedEvent[]; rejected: RejectedItem[] } {
  const script = DomUtils.findOne(
    (el) => el.name === 'script' && el.attribs.id === '__NEXT_DATA__',
    parseDocument(html).children,
  );
  if (!script) throw new ShapeError(SOURCE_TWO, 'the page has no <script id="__NEXT_DATA__">');
  let data: unknown;
  try {
    data = JSON.parse(DomUtils.textContent(script));
  } catch {
    throw new ShapeError(SOURCE_TWO, '__NEXT_DATA__ is not JSON');
  }
  const pageProps = isRecord(data) && isRecord(data.props) ? data.props.pageProps : undefined;
  if (!isRecord(pageProps)) throw new ShapeError(SOURCE_TWO, '__NEXT_DATA__ has no props.pageProps object');
  if (!Array.isArray(pageProps.events))
    throw new ShapeError(SOURCE_TWO, '__NEXT_DATA__ has no props.pageProps.events array');
  const result = { events: [] as NormalizedEvent[], rejected: [] as RejectedItem[] };
  pageProps.events.forEach((item: unknown, index) => {
    const parsed = parseItem(item, `props.pageProps.events[${index}]`, base);
    if ('event' in parsed) result.events.push(rememberRaw(parsed.event, item));
    else result.rejected.push(parsed.rejected);
  });
  return result;
}

export async function fetchSourceTwo(url: string): Promise<{ events: NormalizedEvent[]; rejected: RejectedItem[] }> {
  return parseSourceTwoPage(await fetchText(url, 'text/html'), url);
}
