import type { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import type { EventDoc } from '../documents';
import { coordinatesOf } from './geo';
import { PARTICIPATION_FIELDS } from './record-upgrade';
import type { Event } from './schema';
import { EVENT_SCHEMA_VERSION } from './vocabulary';

// The stored shape has no validator (the interface spec): each reader below takes any value and
// gives the documented type or null, so an odd record never breaks a list.

type Loose = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const obj = (value: unknown): Loose | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
    ? (value as Loose)
    : null;

/** A valid stored date, else null. */
export function storedDate(value: unknown): Date | null {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : null;
}

const iso = (value: unknown): string | null => storedDate(value)?.toISOString() ?? null;

/** The strings of a stored list; a lone string (as `level` may be) is a list of one. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Any stored value as JSON: dates as ISO strings, ids as hex. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return iso(value);
  if (value instanceof ObjectId) return value.toHexString();
  if (Array.isArray(value)) return value.map(plain);
  const fields = obj(value);
  if (fields) return Object.fromEntries(Object.entries(fields).map(([key, inner]) => [key, plain(inner)]));
  return typeof value === 'number' && !Number.isFinite(value) ? null : (value ?? null);
}

function venueView(value: unknown) {
  const venue = obj(value);
  if (!venue) return null;
  const { name, city, region, country, lat, lng } = venue;
  return { name: str(name), city: str(city), region: str(region), country: str(country), lat: num(lat), lng: num(lng) };
}

function spectatingView(value: unknown) {
  const spectating = obj(value);
  if (!spectating) return null;
  return {
    inPerson: bool(spectating.inPerson),
    ticketUrl: str(spectating.ticketUrl),
    streamUrl: str(spectating.streamUrl),
    streamStatus: str(spectating.streamStatus),
  };
}

/**
 * The Live status enum is `scheduled` or `completed` (interface spec); a client decoding it strictly has no
 * `cancelled`. A cancelled event is no longer happening, which is what `completed` tells a Live client; the
 * target view (`?view=target`) says `cancelled`.
 */
export function liveStatus(status: unknown): string | null {
  return status === 'cancelled' ? 'completed' : str(status);
}

function storedFieldsView(doc: EventDoc): z.infer<typeof Event> {
  const e = doc as unknown as Loose;
  const organizer = obj(e.organizer);
  const participation = obj(e.participation);
  return {
    _id: e._id instanceof ObjectId ? e._id.toHexString() : String(e._id),
    // An event without a slug (read as '') names none.
    slug: str(e.slug) || null,
    title: str(e.title),
    description: str(e.description),
    sports: strings(e.sports),
    startAt: iso(e.startAt),
    endAt: iso(e.endAt),
    timezone: str(e.timezone),
    timeTba: bool(e.timeTba),
    status: liveStatus(e.status),
    isOnline: bool(e.isOnline),
    venue: venueView(e.venue),
    organizer: organizer ? { name: str(organizer.name), verified: bool(organizer.verified) } : null,
    participation: participation ? (plain(participation) as Loose) : null,
    spectating: spectatingView(e.spectating),
    image: str(e.image),
    series: str(e.series),
    resultsUrl: str(e.resultsUrl),
    source: str(e.source),
    sourceId: str(e.sourceId),
    sourceUrl: str(e.sourceUrl),
    dedupeKey: str(e.dedupeKey) || null,
    disciplines: strings(e.disciplines),
    eventKinds: strings(e.eventKinds),
    intents: strings(e.intents),
    level: strings(e.level),
    sourceTrust: num(e.sourceTrust),
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
    lastSeenAt: iso(e.lastSeenAt),
  };
}

/** The target participation as the Live shape showed it: the named fields only when set, never inviteOnly. */
function liveParticipation(value: unknown): Loose | null {
  const participation = obj(value);
  if (!participation) return null;
  const named = new Set<string>(PARTICIPATION_FIELDS);
  const kept = Object.entries(participation).filter(
    ([key, inner]) =>
      key !== 'inviteOnly' && !(named.has(key) && (inner === null || (Array.isArray(inner) && inner.length === 0))),
  );
  return kept.length ? (plain(Object.fromEntries(kept)) as Loose) : null;
}

/**
 * The Live shape of any stored event: the one view existing clients get. A Live record is read
 * as stored; a target one (migrations-notes/events-target-model.md) gives back its Live level
 * (invite-only from participation.inviteOnly), its Live participation, sourceTrust only where the
 * second connector carried it, and `liveCompat`: what the migration found no other way to keep.
 */
export function eventView(doc: EventDoc): z.infer<typeof Event> {
  const view = storedFieldsView(doc);
  const e = doc as unknown as Loose;
  if (e.schemaVersion !== EVENT_SCHEMA_VERSION) return view;
  const participation = obj(e.participation);
  return {
    ...view,
    level: [...strings(e.level), ...(participation?.inviteOnly === true ? ['invite-only'] : [])],
    participation: liveParticipation(participation),
    sourceTrust: e.source === 'source-two' ? view.sourceTrust : null,
    ...(obj(e.liveCompat) ?? {}),
  };
}

/** A compact map pin at the venue's point (worker/events/catalog/geo.ts); only located events with a valid startAt reach it. */
export function mapPinView(doc: EventDoc) {
  const view = eventView(doc);
  const at = coordinatesOf(doc.venue);
  return {
    id: view._id,
    slug: view.slug,
    title: view.title,
    startAt: view.startAt ?? '',
    lat: at?.lat ?? 0,
    lng: at?.lng ?? 0,
    sports: view.sports,
  };
}
