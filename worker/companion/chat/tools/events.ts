import type { Filter } from 'mongodb';
import type { EventDoc } from '../../../events/documents';
import { containsPattern } from '../../../platform/db/contains-pattern';
import type { Store } from '../../../platform/db/store';

/** The windows a rider asks about; date windows use UTC calendar boundaries (the interface spec, Events). */
export const EVENT_WINDOWS = ['today', 'this-weekend', 'next-7-days', 'next-30-days'] as const;
export type EventWindow = (typeof EVENT_WINDOWS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** [from, to) of a window asked about at `now`: "this weekend" is the coming Saturday and Sunday, or what is left of it. */
export function eventWindow(when: EventWindow, now: Date): { from: Date; to: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (when === 'today') return { from: new Date(today), to: new Date(today + DAY_MS) };
  if (when === 'this-weekend') {
    const weekday = new Date(today).getUTCDay();
    const saturday = weekday === 0 ? today - DAY_MS : today + ((6 - weekday) % 7) * DAY_MS;
    return { from: new Date(Math.max(saturday, today)), to: new Date(saturday + 2 * DAY_MS) };
  }
  return { from: new Date(today), to: new Date(today + (when === 'next-7-days' ? 7 : 30) * DAY_MS) };
}

/**
 * Events starting in the window, soonest first, optionally where the place text matches the
 * venue's city, region or country or the title, and of one sport. The events list routes
 * (worker/events/catalog/) are another feature; this is the companion's own narrow read.
 */
export function findUpcomingEvents(
  store: Store,
  query: { from: Date; to: Date; place?: string; sport?: string; limit: number },
): Promise<EventDoc[]> {
  const filter: Filter<EventDoc> = { startAt: { $gte: query.from, $lt: query.to } };
  if (query.sport) filter.sports = query.sport;
  if (query.place) {
    const pattern = containsPattern(query.place);
    filter.$or = [
      { 'venue.city': pattern },
      { 'venue.region': pattern },
      { 'venue.country': pattern },
      { title: pattern },
    ];
  }
  return store.events
    .find(filter, {
      projection: { title: 1, slug: 1, startAt: 1, sports: 1, venue: 1, isOnline: 1 },
      sort: { startAt: 1, _id: 1 },
      limit: query.limit,
    })
    .toArray();
}
