import type { EventDoc } from '../documents';
import { coordinatesOf } from './geo';
import { type ContentLine, component, escapeText, formatDate, formatUtc, writeCalendar } from './ical';
import { storedDate, strings } from './views';

const DAY_MS = 24 * 60 * 60 * 1000;
/** UIDs are the event id at this domain, so re-importing a feed updates events instead of duplicating them. */
const UID_DOMAIN = 'rider-service';
const PRODUCT_ID = '-//Rider service//Events//EN';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** Dates without a time are stored at noon UTC (the interface spec, normalization rules). */
const isDateOnly = (start: Date) => start.getTime() % DAY_MS === DAY_MS / 2;

function whenLines(event: EventDoc, start: Date): ContentLine[] {
  const end = storedDate(event.endAt);
  const endsAfterStart = end !== null && end.getTime() > start.getTime();
  if (event.timeTba === true || isDateOnly(start)) {
    // All-day: DTEND is the day after the last day (RFC 5545, 3.6.1: DTEND is exclusive).
    const lastDay = end !== null && end.getTime() >= start.getTime() ? end : start;
    return [
      ['DTSTART;VALUE=DATE', formatDate(start)],
      ['DTEND;VALUE=DATE', formatDate(new Date(lastDay.getTime() + DAY_MS))],
    ];
  }
  return [['DTSTART', formatUtc(start)], ...(endsAfterStart ? [['DTEND', formatUtc(end)] as ContentLine] : [])];
}

function whereLines(event: EventDoc): ContentLine[] {
  const venue = typeof event.venue === 'object' && event.venue ? event.venue : {};
  const place = [venue.name, venue.city, venue.region, venue.country].map(text).filter(Boolean).join(', ');
  const location = place || (event.isOnline === true ? 'Online' : '');
  const at = coordinatesOf(venue);
  return [
    ...(location ? [['LOCATION', escapeText(location)] as ContentLine] : []),
    ...(at ? [['GEO', `${at.lat};${at.lng}`] as ContentLine] : []),
  ];
}

/** One VEVENT, or none for an event without a valid startAt (DTSTART is required). */
export function eventLines(event: EventDoc, now: Date): ContentLine[] {
  const start = storedDate(event.startAt);
  if (!start) return [];
  const changed = storedDate(event.updatedAt) ?? storedDate(event.createdAt);
  const description = text(event.description);
  const url = typeof event.sourceUrl === 'string' && /^https?:\/\/\S+$/.test(event.sourceUrl) ? event.sourceUrl : null;
  const sports = strings(event.sports);
  return component('VEVENT', [
    ['UID', `${String(event._id)}@${UID_DOMAIN}`],
    // DTSTAMP is the last revision when there is no METHOD (RFC 5545, 3.8.7.2): stable across downloads.
    ['DTSTAMP', formatUtc(changed ?? now)],
    ...whenLines(event, start),
    ['SUMMARY', escapeText(text(event.title) ?? 'Untitled event')],
    ...(description ? [['DESCRIPTION', escapeText(description)] as ContentLine] : []),
    ...whereLines(event),
    ...(url ? [['URL', url] as ContentLine] : []),
    ...(sports.length ? [['CATEGORIES', sports.map(escapeText).join(',')] as ContentLine] : []),
    ...(changed ? [['LAST-MODIFIED', formatUtc(changed)] as ContentLine] : []),
  ]);
}

/** A VCALENDAR holding the events that have a date, in the order given. */
export function eventCalendar(events: EventDoc[], now: Date, name: string): string {
  return writeCalendar(
    component('VCALENDAR', [
      ['VERSION', '2.0'],
      ['PRODID', PRODUCT_ID],
      ['CALSCALE', 'GREGORIAN'],
      ['X-WR-CALNAME', escapeText(name)],
      ...events.flatMap((event) => eventLines(event, now)),
    ]),
  );
}
