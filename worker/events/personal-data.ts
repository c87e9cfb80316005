import type { Cleanup } from '../platform/db/personal-data';
import { idForms } from '../platform/db/stored-values';

/**
 * What deleting an account does to the events collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const EVENTS_PERSONAL_DATA: Cleanup[] = [
  // Event saves store ids as strings (Live shape); older code stored ObjectIds.
  { collection: 'event_saves', remove: (userId) => ({ userId: { $in: idForms(userId) } }) },
  // A rider's relationships to events go one at a time, each taking its count off the event.
  {
    collection: 'eventRelationships',
    removeEach: (userId) => ({ userId }),
    followUps: (row) =>
      row.eventId && typeof row.relationship === 'string'
        ? [
            {
              collection: 'events',
              updateOne: {
                filter: { _id: row.eventId },
                update: { $inc: { [`relationshipCounts.${row.relationship}`]: -1 } },
              },
            },
          ]
        : [],
  },
  // Community submissions are shared content: the events stay, without their submitter (docs/event-submissions.md).
  {
    collection: 'events',
    detach: (userId) => ({ filter: { submittedBy: userId }, update: { $unset: { submittedBy: '' } } }),
  },
  // An admin's review decisions and merges stay on the events, without naming the admin.
  {
    collection: 'events',
    detach: (userId) => ({ filter: { 'review.by': userId }, update: { $unset: { 'review.by': '' } } }),
  },
  {
    collection: 'events',
    detach: (userId) => ({ filter: { mergedBy: userId }, update: { $unset: { mergedBy: '' } } }),
  },
  // A rider's saved event filters and every notification queued for them.
  { collection: 'eventSubscriptions', remove: (userId) => ({ userId }) },
  { collection: 'eventNotificationJobs', remove: (userId) => ({ userId }) },
  // Change-log rows name who made a change: a source, or an admin (never a rider). The history of a
  // public event stays; a deleted admin's id is replaced (docs/event-notifications.md).
  {
    collection: 'eventChangeLog',
    detach: (userId) => ({ filter: { by: userId.toHexString() }, update: { $set: { by: 'deleted-admin' } } }),
  },
];
