import {
  createdAtOf,
  readArray,
  readCount,
  readDate,
  readEach,
  readId,
  readIds,
  readNumber,
  readOneOf,
  readRecord,
  readString,
  readStrings,
  updatedAtOf,
} from '../platform/db/stored-values';
import type { EventNotificationJobDoc, EventSubscriptionDoc } from './documents';

// The one reader of stored event subscriptions and notification jobs: what older code left (a lone value
// where a list belongs, a name stored as an object, dates as strings, ids as hex) becomes the shape of
// documents.ts, so views, the service, matching and the notification run meet only the types it names.

const JOB_KINDS = ['change', 'digest'] as const;
const JOB_STATUSES = ['pending', 'sent', 'skipped', 'failed'] as const;

const text = (value: unknown) => readString(value) ?? null;

/** A stored place: a GeoJSON point and a radius, else none (a circle without a centre or a size matches nothing). */
function placeOf(value: unknown): EventSubscriptionDoc['place'] {
  const place = readRecord(value);
  const location = readRecord(place?.location);
  const [lng, lat] = readArray(location?.coordinates).map(readNumber);
  const radiusKm = readNumber(place?.radiusKm);
  if (lng === undefined || lat === undefined || radiusKm === undefined || radiusKm <= 0) return null;
  return { location: { type: 'Point', coordinates: [lng, lat] }, radiusKm, label: text(place?.label) };
}

/**
 * A stored subscription as the service, matching and views use it, or undefined when it has no usable id
 * or owner. Absent or unusable criteria read as none ([] or null), a name that is no text as null.
 */
export function readEventSubscription(stored: unknown): EventSubscriptionDoc | undefined {
  const doc = readRecord(stored);
  const [_id, userId] = [readId(doc?._id), readId(doc?.userId)];
  if (!doc || !_id || !userId) return undefined;
  const version = readCount(doc.version);
  return {
    _id,
    userId,
    name: typeof doc.name === 'string' && doc.name.trim() !== '' ? doc.name : null,
    sports: readStrings(doc.sports),
    disciplines: readStrings(doc.disciplines),
    eventKinds: readStrings(doc.eventKinds),
    intents: readStrings(doc.intents),
    level: readStrings(doc.level),
    place: placeOf(doc.place),
    organizerId: readId(doc.organizerId) ?? null,
    matchKeys: readStrings(doc.matchKeys),
    lastDigestAt: readDate(doc.lastDigestAt) ?? null,
    ...(version !== undefined ? { version } : {}),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}

/** Stored subscriptions as they are used; one that cannot be read is left out with its event line. */
export const readEventSubscriptions = (docs: readonly unknown[]): EventSubscriptionDoc[] =>
  readEach('eventSubscriptions', docs, readEventSubscription);

/**
 * A stored notification job as the run works it, or undefined when it cannot be worked: no id, no rider, no
 * kind it knows, or a change without its event or a digest without its subscription.
 */
export function readEventNotificationJob(stored: unknown): EventNotificationJobDoc | undefined {
  const doc = readRecord(stored);
  const [_id, userId, kind, jobKey] = [
    readId(doc?._id),
    readId(doc?.userId),
    readOneOf(doc?.kind, JOB_KINDS),
    readString(doc?.jobKey),
  ];
  if (!doc || !_id || !userId || !kind || !jobKey) return undefined;
  const eventId = readId(doc.eventId);
  const subscriptionId = readId(doc.subscriptionId);
  if (kind === 'change' ? !eventId : !subscriptionId) return undefined;
  const createdAt = createdAtOf(doc);
  return {
    _id,
    kind,
    userId,
    jobKey,
    status: readOneOf(doc.status, JOB_STATUSES) ?? 'pending',
    dueAt: readDate(doc.dueAt) ?? createdAt,
    leaseId: text(doc.leaseId),
    leaseUntil: readDate(doc.leaseUntil) ?? createdAt,
    attemptCount: readCount(doc.attemptCount) ?? 0,
    ...(eventId ? { eventId } : {}),
    ...(subscriptionId ? { subscriptionId } : {}),
    changeKey: readString(doc.changeKey),
    fields: readStrings(doc.fields),
    reasons: readStrings(doc.reasons),
    eventIds: readIds(doc.eventIds),
    windowAt: readDate(doc.windowAt) ?? null,
    createdAt,
    updatedAt: updatedAtOf(doc),
  };
}
