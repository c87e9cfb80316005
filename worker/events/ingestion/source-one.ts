import { DomUtils, parseDocument } from 'htmlparser2';
import { LIMITS } from '../../platform/limits';
import type { EventSport } from '../../platform/sports';
import { dayAtNoonUtc } from '../catalog/identity';
import type { NormalizedEvent, RejectedItem } from './event-record';
import { rememberRaw } from './raw-payload';
import { isRecord, ShapeError } from './shape-error';
import { fetchText } from './upstream';

// Connector one (the event sources spec, "Source one"): a JSON list, `?page=N`, whose items embed HTML cards.

export const SOURCE_ONE = 'source-one';

type Element = ReturnType<typeof DomUtils.findOne> & {};

/** Sport from the month (the interface spec): November to March is winter. */
function sportsOfMonth(startAt: Date | null): EventSport[] {
  if (!startAt) return [];
  const month = startAt.getUTCMonth() + 1;
  return month >= 11 || month <= 3 ? ['snowboarding', 'skiing'] : ['skateboarding', 'bmx'];
}

const hasClass = (name: string) => (el: Element) => (el.attribs.class ?? '').split(/\s+/).includes(name);

function textOf(root: Element, className: string): string | null {
  const el = DomUtils.findOne(hasClass(className), [root]);
  const text = el ? DomUtils.textContent(el).replace(/\s+/g, ' ').trim() : '';
  return text || null;
}

/** The last path segment of the event URL (the interface spec: sourceId derives from the URL slug). */
function slugOfUrl(url: string): string | null {
  try {
    const segments = new URL(url).pathname.split('/').filter(Boolean);
    return segments.at(-1) ?? null;
  } catch {
    return null;
  }
}

/** One card's HTML as normalized content; a missing part of the fixed card structure is a shape change. */
export function parseCard(
  html: string,
  url: string,
  where: string,
): { event: NormalizedEvent } | { rejected: RejectedItem } {
  const missing = (what: string) => new ShapeError(SOURCE_ONE, `${where}: ${what}`);
  const sourceId = slugOfUrl(url);
  if (!sourceId) throw missing(`url "${url}" has no slug`);
  const card = DomUtils.findOne(hasClass('event-card'), parseDocument(html).children);
  if (!card) throw missing('the article.event-card element');
  const title = textOf(card, 'event-card__title');
  if (!title) throw missing('the .event-card__title text');
  const dateLine = DomUtils.findOne(hasClass('event-card__date'), [card]);
  const start = dateLine && DomUtils.findOne(hasClass('event-card__start'), [dateLine]);
  const startDay = start?.attribs.datetime;
  if (!dateLine || !startDay) throw missing('the time.event-card__start datetime');
  const venueLine = DomUtils.findOne(hasClass('event-card__venue'), [card]);
  if (!venueLine) throw missing('the .event-card__venue line');

  const endDay = DomUtils.findOne(hasClass('event-card__end'), [dateLine])?.attribs.datetime;
  const startAt = dayAtNoonUtc(startDay);
  const endAt = endDay ? dayAtNoonUtc(endDay) : null;
  if (!startAt) return { rejected: { sourceId, reason: `start date "${startDay}" is not a calendar date` } };
  if (endDay && !endAt) return { rejected: { sourceId, reason: `end date "${endDay}" is not a calendar date` } };

  const isOnline = hasClass('event-card__venue--online')(venueLine);
  const name = isOnline ? null : textOf(venueLine, 'venue-name');
  const city = isOnline ? null : textOf(venueLine, 'venue-city');
  const region = isOnline ? null : textOf(venueLine, 'venue-region');
  // venue-country is absent for the U.S. (the event sources spec).
  const country = isOnline ? null : (textOf(venueLine, 'venue-country') ?? (name || city ? 'US' : null));
  const image = DomUtils.findOne(hasClass('event-card__image'), [card])?.attribs.src || null;
  const link = DomUtils.findOne(hasClass('event-card__link'), [card])?.attribs.href || url;
  return {
    event: {
      title,
      description: null,
      sports: sportsOfMonth(startAt),
      startAt,
      endAt,
      timeTba: /\btime tba\b/i.test(DomUtils.textContent(dateLine)),
      isOnline,
      venue: { name, city, region, country },
      organizer: null,
      spectating: null,
      image,
      series: null,
      source: SOURCE_ONE,
      sourceId,
      sourceUrl: link,
    },
  };
}

export interface SourceOnePage {
  pages: number;
  events: NormalizedEvent[];
  rejected: RejectedItem[];
}

/** One `?page=N` response body: its events and the page count it announces. */
export function parseSourceOnePage(body: string, page: number): SourceOnePage {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new ShapeError(SOURCE_ONE, `page ${page} is not JSON`);
  }
  if (!isRecord(data)) throw new ShapeError(SOURCE_ONE, `page ${page} is not a JSON object`);
  if (!Array.isArray(data.events)) throw new ShapeError(SOURCE_ONE, `page ${page} has no "events" array`);
  const pages = data.pages;
  if (typeof pages !== 'number' || !Number.isInteger(pages) || pages < 0 || pages > LIMITS.ingestion.pagesMax)
    throw new ShapeError(SOURCE_ONE, `page ${page} has no "pages" count from 0 to ${LIMITS.ingestion.pagesMax}`);
  const result: SourceOnePage = { pages, events: [], rejected: [] };
  data.events.forEach((item: unknown, index) => {
    const where = `page ${page} events[${index}]`;
    if (!isRecord(item)) throw new ShapeError(SOURCE_ONE, `${where} is not an object`);
    if (typeof item.url !== 'string') throw new ShapeError(SOURCE_ONE, `${where} has no "url" string`);
    if (typeof item.html !== 'string') throw new ShapeError(SOURCE_ONE, `${where} has no "html" string`);
    const parsed = parseCard(item.html, item.url, where);
    if ('event' in parsed) result.events.push(rememberRaw(parsed.event, item));
    else result.rejected.push(parsed.rejected);
  });
  return result;
}

/** Reads every page of source one before anything is written: a page that fails fails the whole run. */
export async function fetchSourceOne(base: string): Promise<{ events: NormalizedEvent[]; rejected: RejectedItem[] }> {
  const pageUrl = (page: number) => {
    const url = new URL(base);
    url.searchParams.set('page', String(page));
    return url.href;
  };
  const first = parseSourceOnePage(await fetchText(pageUrl(1), 'application/json'), 1);
  const events = [...first.events];
  const rejected = [...first.rejected];
  for (let page = 2; page <= first.pages; page++) {
    const next = parseSourceOnePage(await fetchText(pageUrl(page), 'application/json'), page);
    events.push(...next.events);
    rejected.push(...next.rejected);
  }
  return { events, rejected };
}
