import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { EVENTS_COLLECTIONS } from './collections';

/**
 * What events store, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks.
 * worker/events/stored-event.ts reads the same fields of what older code left.
 */
export const EVENTS_STORED_SHAPES: StoredShapes<typeof EVENTS_COLLECTIONS> = {
  events: {
    ...STAMPED,
    slug: 'text',
    dedupeKey: 'text',
    title: 'text',
    sports: 'texts',
    startAt: 'date',
    endAt: 'date',
    lastSeenAt: 'date',
    'venue.city': 'text',
    'venue.lat': 'number',
    'venue.lng': 'number',
    'venue.spotId': 'id',
    'organizer.canonicalId': 'id',
    sourceTrust: 'number',
    'relationshipCounts.interested': 'number',
    'relationshipCounts.going': 'number',
    'relationshipCounts.competing': 'number',
    'relationshipCounts.watching_online': 'number',
    submittedBy: 'id',
    submittedAt: 'date',
    possibleDuplicateOf: 'ids',
    mergedInto: 'id',
    mergedAt: 'date',
    mergedBy: 'id',
  },
  // The Live shape keeps a save's ids as hex strings (the interface spec, "Event save").
  event_saves: { _id: 'id', userId: 'hexId', eventId: 'hexId', createdAt: 'date' },
  eventSources: { lastSuccessAt: 'date', lastFailureAt: 'date', consecutiveFailures: 'number' },
  eventSourceRecords: { _id: 'id', fetchedAt: 'date', firstFetchedAt: 'date' },
  eventSubscriptions: { ...STAMPED, userId: 'id', organizerId: 'id', lastDigestAt: 'date', version: 'number' },
  eventSaves: { ...STAMPED },
  eventChangeLog: { _id: 'id', eventId: 'id', at: 'date' },
  eventNotificationJobs: {
    ...STAMPED,
    userId: 'id',
    dueAt: 'date',
    leaseUntil: 'date',
    attemptCount: 'number',
    eventId: 'id',
    subscriptionId: 'id',
    eventIds: 'ids',
    sentAt: 'date',
  },
  organizers: { _id: 'id', name: 'text', aliases: 'texts', createdAt: 'date' },
  ingestion_runs: { _id: 'id', startedAt: 'date', finishedAt: 'date', durationMs: 'number' },
  eventRelationships: { ...STAMPED, userId: 'id', eventId: 'id' },
  migration_checkpoints: { updatedAt: 'date', migrated: 'number' },
};
