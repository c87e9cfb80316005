import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { encodeKeyset } from '../../platform/http/keyset-cursor';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { OPTIONAL_TOKEN_REFUSALS, optionalCaller, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import type { EventDoc } from '../documents';
import { eventCalendar } from './calendar';
import { CalendarQuery, EventListQuery, filtersOf, MapPinsQuery } from './query-schema';
import { TargetEvent, TargetEventPage, ViewQuery } from './record-schema';
import { targetEventView } from './record-view';
import { EVENT_REFUSALS } from './refusals';
import { calendarResponse, Event, EventPage, EventParam, MapPins, SimilarEvents, SlugOrIdParam } from './schema';
import {
  eventsInBox,
  findEventById,
  isPublished,
  listEvents,
  listEventsByStart,
  listEventsForCalendar,
  resolveEvent,
  similarCandidates,
} from './service';
import { rankSimilar } from './similar';
import { eventView, mapPinView, storedDate } from './views';

const TAGS = ['events'];
const noEvent = errorResponse('No such event');
const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Find events (the Live list): pages of 20, nearest in time from now first, past ones included',
  description: `Without \`date\` the window is the next ${LIMITS.events.defaultWindowDays} UTC days. An unknown value of any parameter is a 400 naming it. \`paging=keyset\` opts into pages sorted by startAt then id.`,
  request: { query: EventListQuery },
  responses: {
    200: jsonResponse(
      z.union([EventPage, TargetEventPage]),
      'A page of events and the number matching: EventPage, or TargetEventPage with view=target',
    ),
  },
});

const calendar = defineRoute({
  method: 'get',
  path: '/calendar.ics',
  tags: TAGS,
  summary: 'The events the list finds, as an iCalendar feed (RFC 5545)',
  description: `The list's filters and order, at most ${LIMITS.events.calendarMax} events. UIDs are \`<id>@rider-service\`; events with a time TBA or stored as a date only (noon UTC) are all-day.`,
  request: { query: CalendarQuery },
  responses: { 200: calendarResponse('An iCalendar object, one VEVENT per event') },
});

const mapPins = defineRoute({
  method: 'get',
  path: '/map-pins',
  tags: TAGS,
  summary: "Compact pins of the events with coordinates inside a bounding box, with the list's filters",
  request: { query: MapPinsQuery },
  responses: { 200: jsonResponse(MapPins, 'Pins, nearest in time first') },
});

const detail = defineRoute({
  method: 'get',
  path: '/{slugOrId}',
  tags: TAGS,
  summary: 'One event, by slug or id',
  description:
    'Pending and rejected events (the target model) are not public: 404, except to the rider who submitted it and to admins, who send their `x-auth-token` (optional; none reads as the public, and one that does not verify, or whose account is gone or revoked it, is 400 `Invalid token.`, an opt-in one past its exp 401 `Token expired.`). The id or slug of an event merged into another answers the surviving event (migrations-notes/events-target-model.md, "Merging").',
  security: PUBLIC_OR_TOKEN,
  request: { params: SlugOrIdParam, query: ViewQuery },
  responses: {
    200: jsonResponse(z.union([Event, TargetEvent]), 'The event: Event, or TargetEvent with view=target'),
    ...OPTIONAL_TOKEN_REFUSALS,
    404: noEvent,
  },
});

const oneCalendar = defineRoute({
  method: 'get',
  path: '/{id}/calendar.ics',
  tags: TAGS,
  summary: 'One event as an iCalendar object (RFC 5545)',
  request: { params: EventParam },
  responses: {
    200: calendarResponse('An iCalendar object with one VEVENT'),
    404: errorResponse('No such event, or the event has no date yet'),
  },
});

const similar = defineRoute({
  method: 'get',
  path: '/{id}/similar',
  tags: TAGS,
  summary: 'A handful of events sharing a sport or kind, nearest in time and place',
  description: `Within ${LIMITS.events.similarWindowDays} days either side of the event (of now, when it has no date); an event with neither sports nor kinds has none.`,
  request: { params: EventParam },
  responses: { 200: jsonResponse(SimilarEvents, 'Similar events, most similar first'), 404: noEvent },
});

/** The view a client asked for: the Live shape unless `view=target`. */
const viewOf = (view: 'live' | 'target') =>
  (view === 'target' ? targetEventView : eventView) as (doc: EventDoc) => never;

/** The events routes, mounted under /api/events; the literal paths come before `/{slugOrId}`. */
export const eventRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    const filters = filtersOf(query);
    if (query.paging === 'keyset') {
      const after = query.cursor && 'keyset' in query.cursor ? query.cursor.keyset : undefined;
      const { rows, last, total } = await listEventsByStart(c.var.db, filters, after);
      const nextCursor = last ? encodeKeyset([last.startAt?.getTime() ?? 0, last.id.toHexString()]) : null;
      return c.json({ events: rows.map(viewOf(query.view)), nextCursor, totalCount: total }, 200);
    }
    const offset = query.cursor && 'offset' in query.cursor ? query.cursor.offset : 0;
    const { rows, total } = await listEvents(c.var.db, filters, offset, new Date());
    const next = offset + LIMITS.events.pageSize;
    return c.json(
      { events: rows.map(viewOf(query.view)), nextCursor: next < total ? String(next) : null, totalCount: total },
      200,
    );
  })
  .openapi(calendar, async (c) => {
    const now = new Date();
    const { rows } = await listEventsForCalendar(c.var.db, filtersOf(c.req.valid('query')), now);
    return c.body(eventCalendar(rows, now, 'Rider events'), 200, { 'content-type': CALENDAR_TYPE });
  })
  .openapi(mapPins, async (c) => {
    const query = c.req.valid('query');
    const { rows, total } = await eventsInBox(c.var.db, filtersOf(query), query.bbox, new Date());
    return c.json({ pins: rows.map(mapPinView), totalCount: total }, 200);
  })
  .openapi(detail, async (c) => {
    // A token sent is checked whatever the event, so a bad one is refused the same on every event.
    const [event, caller] = await Promise.all([
      resolveEvent(c.var.db, c.req.valid('param').slugOrId),
      optionalCaller(c),
    ]);
    if (!event) throw refusal(EVENT_REFUSALS, 'not-found');
    if (!isPublished(event)) {
      const mine = caller && (caller.isAdmin || event.submittedBy?.equals(caller.userId));
      if (!mine) throw refusal(EVENT_REFUSALS, 'not-found');
    }
    return c.json(viewOf(c.req.valid('query').view)(event), 200);
  })
  .openapi(oneCalendar, async (c) => {
    const event = await findEventById(c.var.db, new ObjectId(c.req.valid('param').id));
    if (!event) throw refusal(EVENT_REFUSALS, 'not-found');
    if (!storedDate(event.startAt)) throw refusal(EVENT_REFUSALS, 'undated');
    const title = typeof event.title === 'string' && event.title ? event.title : 'Event';
    return c.body(eventCalendar([event], new Date(), title), 200, { 'content-type': CALENDAR_TYPE });
  })
  .openapi(similar, async (c) => {
    const event = await findEventById(c.var.db, new ObjectId(c.req.valid('param').id));
    if (!event) throw refusal(EVENT_REFUSALS, 'not-found');
    const at = storedDate(event.startAt) ?? new Date();
    const candidates = await similarCandidates(c.var.db, event, at);
    const ranked = rankSimilar(event, candidates, at, LIMITS.events.similarMax);
    return c.json({ events: ranked.map(eventView) }, 200);
  });
