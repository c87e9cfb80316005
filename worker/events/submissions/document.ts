import type { ObjectId } from 'mongodb';
import type { ErrorDetail } from '../../platform/http/errors';
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

type Session = { name: string; startLocal: string; endLocal?: string };

export interface UtcTimes {
  startAt?: Date;
  endAt?: Date | null;
  schedule?: { name: string; startAt: Date; endAt: Date | null }[];
}

/**
 * The local times of a body as UTC instants in `zone` (worker/events/catalog/local-time.ts, DST
 * included), or the fields that do not convert or end before they start.
 */
export function utcTimes(
  body: { startLocal?: string; endLocal?: string; schedule?: Session[] },
  zone: string,
): { times: UtcTimes; errors: ErrorDetail[] } {
  const errors: ErrorDetail[] = [];
  const times: UtcTimes = {};
  const convert = (field: string, local: string) => {
    const at = localToUtc(local, zone);
    if (!at) errors.push({ field, message: `is not a time that exists (${local} in ${zone})` });
    return at;
  };
  if (body.startLocal !== undefined) times.startAt = convert('startLocal', body.startLocal) ?? undefined;
  if (body.endLocal !== undefined) {
    times.endAt = convert('endLocal', body.endLocal);
    if (times.startAt && times.endAt && times.endAt < times.startAt) {
      errors.push({ field: 'endLocal', message: 'is before startLocal' });
    }
  }
  if (body.schedule) {
    times.schedule = body.schedule.map((session, i) => {
      const startAt = convert(`schedule.${i}.startLocal`, session.startLocal);
      const endAt = session.endLocal === undefined ? null : convert(`schedule.${i}.endLocal`, session.endLocal);
      if (startAt && endAt && endAt < startAt)
        errors.push({ field: `schedule.${i}.endLocal`, message: 'is before startLocal' });
      return { name: session.name, startAt: startAt ?? new Date(0), endAt };
    });
  }
  return { times, errors };
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const dateOrNull = (iso: string | undefined) => (iso === undefined ? null : new Date(iso));

/** The venue as stored: the named fields, lat/lng kept for the Live view, and the GeoJSON point the 2dsphere index reads. */
export function venueOf(venue: SubmitInput['venue']) {
  if (!venue) return null;
  return {
    name: orNull(venue.name),
    address: orNull(venue.address),
    city: orNull(venue.city),
    region: orNull(venue.region),
    country: orNull(venue.country),
    lat: orNull(venue.lat),
    lng: orNull(venue.lng),
    location: pointOf(venue.lat, venue.lng),
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
