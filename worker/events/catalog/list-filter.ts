import type { Filter } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import { LIMITS } from '../../platform/limits';
import type { EVENT_INTENTS, EVENT_SPORTS, REGISTRATION_STATUSES } from '../../platform/sports';
import type { EventDoc } from '../documents';
import type { DateWindow } from './date-window';
import { PUBLISHED } from './vocabulary';

export type EventIntentFilter = (typeof EVENT_INTENTS)[number] | 'community';

/** The list's filters once validated (worker/events/catalog/schema.ts), shared by the list, the calendar and the map. */
export interface EventFilters {
  q?: string;
  sport?: (typeof EVENT_SPORTS)[number];
  location?: string;
  window: DateWindow;
  intent?: EventIntentFilter;
  registration?: (typeof REGISTRATION_STATUSES)[number];
}

/** A text that is not blank: the stored shape has no validator, so an empty string is as good as absent. */
const NOT_BLANK = { $regex: /\S/ };

/** What each intent matches: the stored `intents` (connector two) or the Live fields that imply it. */
const INTENT_FILTERS: Record<EventIntentFilter, Filter<EventDoc>> = {
  compete: { intents: 'compete' },
  spectate_in_person: { $or: [{ intents: 'spectate_in_person' }, { 'spectating.inPerson': true }] },
  spectate_online: {
    $or: [{ intents: 'spectate_online' }, { isOnline: true }, { 'spectating.streamUrl': NOT_BLANK }],
  },
  // The interface spec, list rule 4: community is matched against the series text.
  community: { series: containsPattern('community') },
};

/**
 * Events whose days meet the window: starting inside it, or started before it and still running
 * (endAt on or after its first day). Only a stored date compares with a date, so an event
 * without a valid startAt is in no window. The lower bound on startAt keeps the scan of the
 * startAt index short; an event running longer than LIMITS.events.longestRunDays is cut off.
 */
export function windowFilter(window: DateWindow): Filter<EventDoc> {
  const earliest = new Date(window.from.getTime() - LIMITS.events.longestRunDays * 24 * 60 * 60 * 1000);
  return {
    startAt: { $gte: earliest, $lt: window.to },
    $or: [{ startAt: { $gte: window.from } }, { endAt: { $gte: window.from } }],
  };
}

/** The MongoDB filter of the list's parameters; every condition must hold. */
export function eventFilter(filters: EventFilters): Filter<EventDoc> {
  const all: Filter<EventDoc>[] = [windowFilter(filters.window), PUBLISHED];
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    all.push({ $or: [{ title: pattern }, { description: pattern }, { series: pattern }] });
  }
  if (filters.sport) all.push({ sports: filters.sport });
  if (filters.location) {
    const pattern = containsPattern(filters.location);
    all.push({
      $or: [
        { 'venue.city': pattern },
        { 'venue.region': pattern },
        { 'venue.country': pattern },
        { 'venue.name': pattern },
      ],
    });
  }
  if (filters.intent) all.push(INTENT_FILTERS[filters.intent]);
  if (filters.registration) all.push({ 'participation.registrationStatus': filters.registration });
  return { $and: all };
}
