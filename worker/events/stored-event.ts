import {
  createdAtOf,
  readArray,
  readBoolean,
  readCount,
  readDate,
  readEach,
  readId,
  readIds,
  readNumber,
  readOneOf,
  readRecord,
  readString,
} from '../platform/db/stored-values';
import { APPROVAL_STATUSES, EVENT_RELATIONSHIPS } from './catalog/vocabulary';
import type { EventDoc, EventOrganizer, EventSaveDoc, EventSpectating, EventVenue } from './documents';

// The one reader of stored events and event saves: what older code and other sources left (dates as
// strings or epochs, ids as hex, numbers as strings, a lone value where a list belongs) becomes the
// shape of documents.ts, so no view or job meets a value of another type than the one it names.

const STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
const REVIEW_DECISIONS = ['approve', 'reject'] as const;

const text = (value: unknown) => readString(value) ?? null;
/** A list of vocabulary words (sports, kinds, intents, levels): only texts, a number there names none. */
const words = (value: unknown) =>
  readArray(value).filter((item): item is string => typeof item === 'string' && item !== '');

function pointOf(value: unknown): EventVenue['location'] {
  const point = readRecord(value);
  const [lng, lat] = readArray(point?.coordinates).map(readNumber);
  return point?.type === 'Point' && lng !== undefined && lat !== undefined
    ? { type: 'Point', coordinates: [lng, lat] }
    : null;
}

function venueOf(value: unknown): EventVenue | null {
  const venue = readRecord(value);
  if (!venue) return null;
  return {
    name: text(venue.name),
    city: text(venue.city),
    region: text(venue.region),
    country: text(venue.country),
    lat: readNumber(venue.lat) ?? null,
    lng: readNumber(venue.lng) ?? null,
    address: text(venue.address),
    location: pointOf(venue.location),
    spotId: readId(venue.spotId) ?? null,
  };
}

function organizerOf(value: unknown): EventOrganizer | null {
  const organizer = readRecord(value);
  if (!organizer) return null;
  return {
    name: text(organizer.name),
    verified: readBoolean(organizer.verified) ?? null,
    canonicalId: readId(organizer.canonicalId) ?? null,
    url: text(organizer.url),
  };
}

function spectatingOf(value: unknown): EventSpectating | null {
  const spectating = readRecord(value);
  if (!spectating) return null;
  return {
    inPerson: readBoolean(spectating.inPerson) ?? null,
    ticketUrl: text(spectating.ticketUrl),
    streamUrl: text(spectating.streamUrl),
    streamStatus: text(spectating.streamStatus),
    ticketPriceText: text(spectating.ticketPriceText),
    broadcaster: text(spectating.broadcaster),
  };
}

function countsOf(value: unknown): Record<string, number> | undefined {
  const counts = readRecord(value);
  if (!counts) return undefined;
  return Object.fromEntries(EVENT_RELATIONSHIPS.map((name) => [name, readCount(counts[name]) ?? 0]));
}

function reviewOf(value: unknown): EventDoc['review'] {
  const review = readRecord(value);
  const decision = readOneOf(review?.decision, REVIEW_DECISIONS);
  const at = readDate(review?.at);
  if (!review || !decision || !at) return undefined;
  const by = readId(review.by);
  return { decision, reason: text(review.reason), at, ...(by ? { by } : {}) };
}

/** Keeps only the optional fields that read as something, so an absent one stays absent. */
function present<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * A stored event as its views and jobs use it, or undefined when it has no usable id (nothing could
 * link to it). Target-model parts the views read field by field (participation, schedule, sourceRefs,
 * freshness, liveCompat) are kept as stored when they are objects or lists.
 */
export function readEvent(stored: unknown): EventDoc | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  return {
    _id,
    slug: readString(doc.slug) ?? '',
    dedupeKey: readString(doc.dedupeKey) ?? '',
    title: text(doc.title),
    description: text(doc.description),
    sports: words(doc.sports),
    startAt: readDate(doc.startAt) ?? null,
    endAt: readDate(doc.endAt) ?? null,
    timezone: text(doc.timezone),
    timeTba: readBoolean(doc.timeTba) ?? null,
    status: readOneOf(doc.status, STATUSES) ?? null,
    isOnline: readBoolean(doc.isOnline) ?? null,
    venue: venueOf(doc.venue),
    organizer: organizerOf(doc.organizer),
    participation: readRecord(doc.participation) ?? null,
    spectating: spectatingOf(doc.spectating),
    image: text(doc.image),
    series: text(doc.series),
    resultsUrl: text(doc.resultsUrl),
    source: text(doc.source),
    sourceId: text(doc.sourceId),
    sourceUrl: text(doc.sourceUrl),
    disciplines: words(doc.disciplines),
    eventKinds: words(doc.eventKinds),
    intents: words(doc.intents),
    level: words(doc.level),
    sourceTrust: readNumber(doc.sourceTrust) ?? null,
    contentHash: text(doc.contentHash),
    createdAt: createdAtOf(doc),
    updatedAt: readDate(doc.updatedAt) ?? null,
    lastSeenAt: readDate(doc.lastSeenAt) ?? null,
    ...present({
      schemaVersion: readNumber(doc.schemaVersion),
      schedule: Array.isArray(doc.schedule) ? (doc.schedule as EventDoc['schedule']) : undefined,
      sourceRefs: Array.isArray(doc.sourceRefs) ? (doc.sourceRefs as EventDoc['sourceRefs']) : undefined,
      freshness: readRecord(doc.freshness) as EventDoc['freshness'],
      approvalStatus: readOneOf(doc.approvalStatus, APPROVAL_STATUSES),
      relationshipCounts: countsOf(doc.relationshipCounts),
      liveCompat: readRecord(doc.liveCompat),
      submittedBy: readId(doc.submittedBy),
      submittedAt: readDate(doc.submittedAt),
      possibleDuplicateOf: doc.possibleDuplicateOf === undefined ? undefined : readIds(doc.possibleDuplicateOf),
      review: reviewOf(doc.review),
      mergedInto: readId(doc.mergedInto),
      mergedAt: readDate(doc.mergedAt),
      mergedBy: readId(doc.mergedBy),
    }),
  };
}

/** A stored save with its ids as the hex strings the Live feature keeps, whichever form they were stored in. */
export function readEventSave(stored: unknown): EventSaveDoc | undefined {
  const doc = readRecord(stored);
  const [_id, userId, eventId] = [readId(doc?._id), readId(doc?.userId), readId(doc?.eventId)];
  if (!doc || !_id || !userId || !eventId) return undefined;
  return { _id, userId: userId.toHexString(), eventId: eventId.toHexString(), createdAt: createdAtOf(doc) };
}

/** Stored events as their views and jobs use them; one that cannot be read is left out with its event line. */
export const readEvents = (docs: readonly unknown[]): EventDoc[] => readEach('events', docs, readEvent);
