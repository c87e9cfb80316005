import type { ObjectId } from 'mongodb';
import type { ErrorDetail } from '../../platform/http/errors';
import { coordinatesOf } from '../catalog/geo';
import { eventDedupeKey, eventSlug } from '../catalog/identity';
import { localToUtc } from '../catalog/local-time';
import { pointOf } from '../catalog/record-upgrade';
import {
  COMMUNITY_SOURCE,
  COMMUNITY_TRUST,
  EVENT_SCHEMA_VERSION,
  NO_RELATIONSHIP_COUNTS,
  STALE_AFTER_MS,
} from '../catalog/vocabulary';
import type { EventDoc } from '../documents';
import type { SubmitInput } from './schema';

// A submission's body → the stored event. Pure: the route adds the spot link
// and the possible duplicates, which need the store.

/** A start and an end, each as an instant with an offset or a local time (one form each: the schema saw to it). */
interface GivenTimes {
  startAt?: string;
  startLocal?: string;
  endAt?: string;
  endLocal?: string;
}
type Session = GivenTimes & { name: string };

export interface UtcTimes {
  startAt?: Date;
  endAt?: Date | null;
  schedule?: { name: string; startAt: Date; endAt: Date | null }[];
}

/**
 * The times of a body as UTC instants: an instant as given (its offset applied), a local time
 * read in `zone` (worker/events/catalog/local-time.ts, DST included); or the fields that do not
 * convert or end before they start. A local time without a zone names `timezone`.
 */
export function utcTimes(
  body: GivenTimes & { schedule?: Session[] },
  zone: string | null | undefined,
): { times: UtcTimes; errors: ErrorDetail[] } {
  const errors: ErrorDetail[] = [];
  const times: UtcTimes = {};
  const convert = (field: string, local: string) => {
    if (!zone) {
      if (!errors.some((error) => error.field === 'timezone'))
        errors.push({ field: 'timezone', message: 'is required to read local times: none is given or stored' });
      return null;
    }
    const at = localToUtc(local, zone);
    if (!at) errors.push({ field, message: `is not a time that exists (${local} in ${zone})` });
    return at;
  };
  /** One time of `at` under `prefix`: the instant form, else the local one; undefined when neither is given. */
  const timeOf = (at: GivenTimes, which: 'start' | 'end', prefix: string) => {
    const [instant, local] = which === 'start' ? [at.startAt, at.startLocal] : [at.endAt, at.endLocal];
    if (instant !== undefined) return { field: `${prefix}${which}At`, at: new Date(instant) };
    if (local !== undefined) return { field: `${prefix}${which}Local`, at: convert(`${prefix}${which}Local`, local) };
    return undefined;
  };
  const span = (at: GivenTimes, prefix: string) => {
    const [start, end] = [timeOf(at, 'start', prefix), timeOf(at, 'end', prefix)];
    if (start?.at && end?.at && end.at < start.at)
      errors.push({ field: end.field, message: `is before ${start.field}` });
    return { start, end };
  };
  const { start, end } = span(body, '');
  if (start) times.startAt = start.at ?? undefined;
  if (end) times.endAt = end.at;
  if (body.schedule) {
    times.schedule = body.schedule.map((session, i) => {
      const { start, end } = span(session, `schedule.${i}.`);
      return { name: session.name, startAt: start?.at ?? new Date(0), endAt: end?.at ?? null };
    });
  }
  return { times, errors };
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const dateOrNull = (iso: string | undefined) => (iso === undefined ? null : new Date(iso));

/**
 * Where a given venue is, in every stored form: lat/lng for the Live view and the GeoJSON point
 * the 2dsphere index reads, from whichever form was given; null when neither was.
 */
export function positionOf(venue: SubmitInput['venue']) {
  const at = coordinatesOf(venue);
  return at ? { lat: at.lat, lng: at.lng, location: pointOf(at.lat, at.lng) } : null;
}

/** The venue as stored: the named fields and its position (positionOf). */
export function venueOf(venue: SubmitInput['venue']) {
  if (!venue) return null;
  const position = positionOf(venue);
  return {
    name: orNull(venue.name),
    address: orNull(venue.address),
    city: orNull(venue.city),
    region: orNull(venue.region),
    country: orNull(venue.country),
    lat: position?.lat ?? null,
    lng: position?.lng ?? null,
    location: position?.location ?? null,
    spotId: null,
  };
}

export function participationOf(p: SubmitInput['participation']) {
  return {
    registrationStatus: orNull(p?.registrationStatus),
    registrationOpensAt: dateOrNull(p?.registrationOpensAt),
    registrationClosesAt: dateOrNull(p?.registrationClosesAt),
    registrationUrl: orNull(p?.registrationUrl),
    priceText: orNull(p?.priceText),
    divisions: p?.divisions ?? [],
    eligibilityText: orNull(p?.eligibilityText),
    inviteOnly: p?.inviteOnly ?? false,
  };
}

export function spectatingOf(s: SubmitInput['spectating']) {
  if (!s) return null;
  return {
    inPerson: orNull(s.inPerson),
    ticketUrl: orNull(s.ticketUrl),
    streamUrl: orNull(s.streamUrl),
    streamStatus: null,
    ticketPriceText: orNull(s.ticketPriceText),
    broadcaster: orNull(s.broadcaster),
  };
}

/**
 * The stored event of a submission: the target shape, pending, from the community source, its
 * dedupe key suffixed with its id (the unique index never refuses a submission; the plain key
 * is what duplicates are matched on).
 */
export function submissionDocument(
  body: SubmitInput,
  times: UtcTimes,
  at: { id: ObjectId; userId: ObjectId; now: Date },
): EventDoc {
  const venue = venueOf(body.venue);
  const startAt = times.startAt ?? null;
  const dedupeKey = `${eventDedupeKey({ title: body.title, startAt, city: venue?.city })}|submission:${at.id.toHexString()}`;
  const last = times.endAt ?? startAt;
  return {
    _id: at.id,
    slug: eventSlug(body.title, dedupeKey),
    dedupeKey,
    title: body.title,
    description: orNull(body.description),
    sports: body.sports,
    disciplines: body.disciplines ?? [],
    eventKinds: body.eventKinds ?? [],
    intents: body.intents ?? [],
    level: body.level ?? [],
    startAt,
    endAt: times.endAt ?? null,
    timezone: body.timezone,
    timeTba: body.timeTba ?? false,
    status: last && last.getTime() < at.now.getTime() - 24 * 60 * 60 * 1000 ? 'completed' : 'scheduled',
    isOnline: body.isOnline ?? false,
    schedule: times.schedule ?? [],
    venue,
    organizer: body.organizer
      ? { name: body.organizer.name, verified: false, canonicalId: null, url: orNull(body.organizer.url) }
      : null,
    participation: participationOf(body.participation),
    spectating: spectatingOf(body.spectating),
    image: orNull(body.image),
    series: orNull(body.series),
    resultsUrl: orNull(body.resultsUrl),
    source: COMMUNITY_SOURCE,
    sourceId: at.id.toHexString(),
    sourceUrl: orNull(body.website),
    sourceRefs: [],
    sourceTrust: COMMUNITY_TRUST,
    freshness: {
      lastVerifiedAt: at.now,
      staleAfter: new Date(at.now.getTime() + STALE_AFTER_MS),
      changedAt: null,
    },
    approvalStatus: 'pending',
    relationshipCounts: { ...NO_RELATIONSHIP_COUNTS },
    schemaVersion: EVENT_SCHEMA_VERSION,
    submittedBy: at.userId,
    submittedAt: at.now,
    possibleDuplicateOf: [],
    createdAt: at.now,
    updatedAt: at.now,
    lastSeenAt: at.now,
  } as EventDoc;
}
