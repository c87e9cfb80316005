import { z } from '@hono/zod-openapi';
import { keysetCursor } from '../../platform/http/keyset-cursor';
import { queryText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';
import { EVENT_INTENTS, EVENT_SPORTS, REGISTRATION_STATUSES } from '../../platform/sports';
import { dateWindow, defaultWindow, NAMED_WINDOWS } from './date-window';
import type { EventFilters } from './list-filter';
import { VIEW_FIELD } from './record-schema';

const DATE_VALUES = `${NAMED_WINDOWS.join(', ')}, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD`;
const text = queryText().optional();

/** The keyset cursor's key: the last event's startAt (epoch ms) and id. */
export interface EventKey {
  startAt: Date;
  id: string;
}

const parseKey = (key: unknown): EventKey | undefined => {
  if (!Array.isArray(key) || key.length !== 2) return undefined;
  const [ms, id] = key;
  if (!Number.isSafeInteger(ms) || typeof id !== 'string' || !/^[0-9a-f]{24}$/.test(id)) return undefined;
  return { startAt: new Date(ms as number), id };
};
const decodeKeyset = (cursor: string) => keysetCursor(parseKey).safeParse(cursor).data;

/** The list's filters, shared by the list, its calendar feed and the map pins. */
const FILTER_FIELDS = {
  q: text.describe('title, description or series contains this text (case-insensitive)'),
  sport: z.enum(EVENT_SPORTS).optional().describe('events filed under this sport'),
  location: text.describe(
    'venue name, city, region or country contains this text (case-insensitive); online events have none',
  ),
  date: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const now = new Date();
      if (value === undefined || value === '') return defaultWindow(now);
      const window = dateWindow(value, now);
      if (!window) ctx.addIssue({ code: 'custom', message: `must be one of ${DATE_VALUES}` });
      return window ?? z.NEVER;
    })
    .describe(
      `UTC calendar days: today; weekend (Saturday and Sunday, this one while it lasts); week (today and the next 6 days); month (today and the next ${LIMITS.events.defaultWindowDays - 1} days, the default when absent); YYYY-MM-DD (that day); YYYY-MM-DD..YYYY-MM-DD (both days included). An event is in when it starts inside the window, or started before it (at most ${LIMITS.events.longestRunDays} days before) and its endAt reaches into it. Events without a valid startAt are in no window, so lists never show them; they are reachable by slug or id.`,
    ),
  intent: z
    .enum([...EVENT_INTENTS, 'community'])
    .optional()
    .describe(
      'compete: intents holds compete; spectate_in_person: intents holds it or spectating.inPerson is true; spectate_online: intents holds it, isOnline is true or spectating.streamUrl is set; community: the series text contains "community"',
    ),
  registration: z.enum(REGISTRATION_STATUSES).optional().describe('participation.registrationStatus equals this value'),
  radius: z
    .string()
    .optional()
    .describe('sent by some clients; accepted and ignored (the interface spec, list rule 2)'),
};

const FilterQuery = z.object(FILTER_FIELDS);

type Cursor = { offset: number } | { keyset: EventKey };

export const EventListQuery = z
  .object({
    ...FILTER_FIELDS,
    view: VIEW_FIELD,
    paging: z
      .enum(['offset', 'keyset'])
      .default('offset')
      .describe(
        'offset (default, the Live list): sorted by distance in time from now, cursor a numeric offset; keyset: sorted by startAt then id, cursor opaque',
      ),
    cursor: z
      .string()
      .optional()
      .transform((cursor, ctx): Cursor | undefined => {
        if (cursor === undefined || cursor === '') return undefined;
        if (/^\d+$/.test(cursor) && Number(cursor) <= LIMITS.events.offsetMax) return { offset: Number(cursor) };
        const keyset = decodeKeyset(cursor);
        if (keyset) return { keyset };
        ctx.addIssue({
          code: 'custom',
          message: `must be a nextCursor this API returned (offset paging: a number up to ${LIMITS.events.offsetMax})`,
        });
        return z.NEVER;
      })
      .describe(`the nextCursor of the previous page; pages hold ${LIMITS.events.pageSize} events`),
  })
  .refine((query) => !query.cursor || 'keyset' in query.cursor === (query.paging === 'keyset'), {
    message: 'is not a cursor of this paging',
    path: ['cursor'],
  });

export const CalendarQuery = FilterQuery;

/** `minLng,minLat,maxLng,maxLat`; a box whose minLng exceeds maxLng crosses the antimeridian. */
const Bbox = z.string().transform((value, ctx) => {
  const parts = value.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  const [minLng, minLat, maxLng, maxLat] = parts as [number, number, number, number];
  const lngOk = (lng: number) => Math.abs(lng) <= 180;
  const latOk = (lat: number) => Math.abs(lat) <= 90;
  if (parts.length !== 4 || !lngOk(minLng) || !lngOk(maxLng) || !latOk(minLat) || !latOk(maxLat) || minLat > maxLat) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be "minLng,minLat,maxLng,maxLat" in degrees with minLat <= maxLat, e.g. "-118.7,33.7,-117.9,34.3"',
    });
    return z.NEVER;
  }
  return { minLng, minLat, maxLng, maxLat };
});

export type BoundingBox = z.infer<typeof Bbox>;

export const MapPinsQuery = z.object({
  ...FILTER_FIELDS,
  bbox: Bbox.describe('minLng,minLat,maxLng,maxLat; minLng > maxLng spans the antimeridian'),
});

/** The parsed filter fields of any of these queries. */
export function filtersOf(query: z.infer<typeof FilterQuery>): EventFilters {
  const { q, sport, location, date, intent, registration } = query;
  return { q: q || undefined, sport, location: location || undefined, window: date, intent, registration };
}
