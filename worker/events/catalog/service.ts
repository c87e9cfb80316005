import { type Filter, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { idForms, readDate, readId, readOne } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { EventDoc } from '../documents';
import { readEvent, readEvents } from '../stored-event';
import type { DateWindow } from './date-window';
import { boxFilter } from './geo';
import { type EventFilters, eventFilter, windowFilter } from './list-filter';
import type { BoundingBox, EventKey } from './query-schema';
import { PUBLISHED } from './vocabulary';

// Every query on events. Writes belong to ingestion; these only read, each stored event through
// readEvent (an unreadable one is left out of a list with its event line, never failing it).

/** A filter on an event's id in either form it may be stored in. */
export const eventIdIs = (id: ObjectId): Filter<EventDoc> => ({ _id: { $in: idForms(id) as unknown as ObjectId[] } });

export interface EventRows {
  rows: EventDoc[];
  total: number;
}

/**
 * Matching events nearest in time to `now` first, past or future (the interface spec, list rule 6),
 * `_id` breaking ties so offset pages never overlap; with the total, in one round trip.
 */
export async function eventsNearestInTime(
  store: Store,
  filter: Filter<EventDoc>,
  page: { offset: number; limit: number },
  now: Date,
): Promise<EventRows> {
  const [result] = await store.events
    .aggregate<{ rows: EventDoc[]; total: { n: number }[] }>([
      { $match: filter },
      // The window filter admits only stored dates, so the subtraction always has one.
      { $addFields: { _distanceMs: { $abs: { $subtract: ['$startAt', now] } } } },
      { $sort: { _distanceMs: 1, _id: 1 } },
      {
        $facet: {
          rows: [{ $skip: page.offset }, { $limit: page.limit }, { $project: { _distanceMs: 0 } }],
          total: [{ $count: 'n' }],
        },
      },
    ])
    .toArray();
  return { rows: readEvents(result?.rows ?? []), total: result?.total[0]?.n ?? 0 };
}

export function listEvents(store: Store, filters: EventFilters, offset: number, now: Date): Promise<EventRows> {
  return eventsNearestInTime(store, eventFilter(filters), { offset, limit: LIMITS.events.pageSize }, now);
}

/** The calendar feed: the list's events in the list's order, up to the feed's cap. */
export function listEventsForCalendar(store: Store, filters: EventFilters, now: Date): Promise<EventRows> {
  return eventsNearestInTime(store, eventFilter(filters), { offset: 0, limit: LIMITS.events.calendarMax }, now);
}

/**
 * The keyset pages: startAt then `_id` ascending, one page of events and the key of the last one
 * fetched, so the next page starts after it even when that one could not be read.
 */
export async function listEventsByStart(store: Store, filters: EventFilters, after: EventKey | undefined) {
  const filter = eventFilter(filters);
  const afterKey: Filter<EventDoc> = after
    ? {
        $or: [{ startAt: { $gt: after.startAt } }, { startAt: after.startAt, _id: { $gt: new ObjectId(after.id) } }],
      }
    : {};
  const [rows, total] = await Promise.all([
    store.events
      .find({ $and: [filter, afterKey] })
      .sort({ startAt: 1, _id: 1 })
      .limit(LIMITS.events.pageSize + 1)
      .toArray(),
    store.events.countDocuments(filter),
  ]);
  const page = rows.slice(0, LIMITS.events.pageSize);
  const raw = rows.length > page.length ? page[page.length - 1] : undefined;
  const lastId = readId(raw?._id);
  const last = lastId && { startAt: readDate(raw?.startAt), id: lastId };
  return { rows: readEvents(page), last, total };
}

const MERGE_HOPS_MAX = 5;

/**
 * The event a slug or id names, whatever its approval status, following merges: a merged-away
 * event (mergedInto, worker/events/desk/merge.ts) answers the event it was merged into, so its
 * old id and slug keep resolving.
 */
export async function resolveEvent(store: Store, slugOrId: string): Promise<EventDoc | null> {
  const key =
    ObjectId.isValid(slugOrId) && /^[0-9a-fA-F]{24}$/.test(slugOrId)
      ? { $or: [eventIdIs(new ObjectId(slugOrId)), { slug: slugOrId }] }
      : { slug: slugOrId };
  let event = readOne('events', await store.events.findOne(key), readEvent);
  // Merging flattens chains (worker/events/desk/merge.ts), so one hop is the rule; the cap guards a cycle.
  for (let hop = 0; event?.mergedInto && hop < MERGE_HOPS_MAX; hop += 1) {
    event = readOne('events', await store.events.findOne(eventIdIs(event.mergedInto)), readEvent);
  }
  return event && !event.mergedInto ? event : null;
}

/** Whether the public sees the event (PUBLISHED as a predicate). */
export const isPublished = (event: Pick<EventDoc, 'approvalStatus'>) =>
  event.approvalStatus !== 'pending' && event.approvalStatus !== 'rejected';

/** A published event by id (when the text is one) or by slug, following merges. */
export async function findEvent(store: Store, slugOrId: string): Promise<EventDoc | null> {
  const event = await resolveEvent(store, slugOrId);
  return event && isPublished(event) ? event : null;
}

/** A published event by id (pending and rejected ones are not public). */
export async function findEventById(store: Store, id: ObjectId): Promise<EventDoc | null> {
  return readOne('events', await store.events.findOne({ ...eventIdIs(id), ...PUBLISHED }), readEvent) ?? null;
}

export async function findEventsByIds(store: Store, ids: ObjectId[]): Promise<EventDoc[]> {
  const forms = ids.flatMap(idForms) as unknown as ObjectId[];
  return readEvents(await store.events.find({ _id: { $in: forms }, ...PUBLISHED }).toArray());
}

/** Events located inside the box (worker/events/catalog/geo.ts: venue.location and its 2dsphere index), nearest in time first, capped. */
export function eventsInBox(store: Store, filters: EventFilters, box: BoundingBox, now: Date): Promise<EventRows> {
  const filter = { $and: [eventFilter(filters), boxFilter(box)] };
  return eventsNearestInTime(store, filter, { offset: 0, limit: LIMITS.events.mapPinsMax }, now);
}

/**
 * Candidates for "similar": published events sharing a sport or a kind, within the similar window
 * around `at`: those nearest in time and, for an event placed by venue.location, those nearest in
 * place ($geoNear on the 2dsphere index); worker/events/catalog/similar.ts ranks them by time and place.
 */
export async function similarCandidates(store: Store, event: EventDoc, at: Date): Promise<EventDoc[]> {
  const sports = Array.isArray(event.sports) ? event.sports : [];
  const kinds = Array.isArray(event.eventKinds) ? event.eventKinds : [];
  if (!sports.length && !kinds.length) return [];
  const reach = LIMITS.events.similarWindowDays * 24 * 60 * 60 * 1000;
  const window: DateWindow = { from: new Date(at.getTime() - reach), to: new Date(at.getTime() + reach) };
  const filter: Filter<EventDoc> = {
    $and: [
      windowFilter(window),
      PUBLISHED,
      { _id: { $ne: event._id } },
      { $or: [{ sports: { $in: sports } }, { eventKinds: { $in: kinds } }] },
    ],
  };
  const location = event.venue?.location;
  const [byTime, byPlace] = await Promise.all([
    eventsNearestInTime(store, filter, { offset: 0, limit: LIMITS.events.similarCandidates }, at),
    location?.type === 'Point'
      ? store.events
          .aggregate<EventDoc>([
            { $geoNear: { near: location, distanceField: '_distanceM', key: 'venue.location', query: filter } },
            { $limit: LIMITS.events.similarCandidates },
            { $project: { _distanceM: 0 } },
          ])
          .toArray()
          .then(readEvents)
      : Promise.resolve([]),
  ]);
  const seen = new Set(byTime.rows.map((row) => row._id.toHexString()));
  return [...byTime.rows, ...byPlace.filter((row) => !seen.has(row._id.toHexString()))];
}
