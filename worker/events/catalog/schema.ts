import { z } from '@hono/zod-openapi';
import { pathId } from '../../platform/http/ids';
import { LIMITS } from '../../platform/limits';

// Response shapes. The stored shape has no validator (the interface spec), so every stored field
// is here, null when absent or of the wrong type; lists are [] then.

const text = z.string().nullable();
const when = z.string().nullable().describe('ISO 8601 UTC; null when absent');
const texts = z.array(z.string());

const Venue = z
  .object({
    name: text,
    city: text,
    region: text,
    country: text,
    lat: z.number().nullable(),
    lng: z.number().nullable(),
  })
  .openapi('EventVenue');

const Organizer = z.object({ name: text, verified: z.boolean().nullable() }).openapi('EventOrganizer');

const Spectating = z
  .object({ inPerson: z.boolean().nullable(), ticketUrl: text, streamUrl: text, streamStatus: text })
  .openapi('EventSpectating');

export const Event = z
  .object({
    _id: z.string(),
    slug: text,
    title: text,
    description: text,
    sports: texts,
    startAt: when,
    endAt: when,
    timezone: text.describe('currently always null (the interface spec)'),
    timeTba: z.boolean().nullable(),
    status: text.describe('scheduled or completed'),
    isOnline: z.boolean().nullable(),
    venue: Venue.nullable(),
    organizer: Organizer.nullable(),
    participation: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('as stored, dates as ISO strings; registrationStatus is what the list filters on'),
    spectating: Spectating.nullable(),
    image: text,
    series: text,
    resultsUrl: text,
    source: text,
    sourceId: text,
    sourceUrl: text,
    dedupeKey: text,
    disciplines: texts,
    eventKinds: texts,
    intents: texts,
    level: texts,
    sourceTrust: z.number().nullable(),
    createdAt: when,
    updatedAt: when,
    lastSeenAt: when,
  })
  .openapi('Event');

export const EventPage = z
  .object({
    events: z.array(Event),
    nextCursor: z.string().nullable(),
    totalCount: z.number().int().describe('events matching the filters, on every page'),
  })
  .openapi('EventPage');

const MapPin = z
  .object({
    id: z.string(),
    slug: text,
    title: text,
    startAt: z.string(),
    lat: z.number(),
    lng: z.number(),
    sports: texts,
  })
  .openapi('EventMapPin');

export const MapPins = z
  .object({
    pins: z.array(MapPin).describe(`nearest in time from now first, at most ${LIMITS.events.mapPinsMax}`),
    totalCount: z.number().int().describe('events in the box matching the filters; more than pins when capped'),
  })
  .openapi('EventMapPins');

export const SimilarEvents = z
  .object({ events: z.array(Event).describe(`at most ${LIMITS.events.similarMax}, most similar first`) })
  .openapi('SimilarEvents');

export const SlugOrIdParam = z.object({
  slugOrId: z
    .string()
    .min(1)
    .max(LIMITS.events.slugOrIdMax)
    .openapi({ param: { name: 'slugOrId', in: 'path' } }),
});

export const EventParam = z.object({ id: pathId('id') });

/** An iCalendar body (RFC 5545); its content is checked by the tests with an independent parser. */
export const calendarResponse = (description: string) => ({
  description,
  content: { 'text/calendar': { schema: z.string() } },
});
