import type { AnyBulkWriteOperation, ObjectId } from 'mongodb';
import { upsertByUniqueKey } from '../../platform/db/bulk-upsert';
import type { Store } from '../../platform/db/store';
import { idForms, readId } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { EventChangeLogDoc, EventDoc, EventNotificationJobDoc } from '../documents';
import { matchingSubscriptions } from '../subscriptions/match';
import { changeKeyOf, isPublished, type MaterialField, materialChanges } from './material';

// The change history of published events and its fan-out to riders
// (docs/event-notifications.md). Called by ingestion for a source's update of an existing event
// (worker/events/ingestion/bulk-writer.ts) and by the admin edit with the admin as `by`.

export type ChangeReason = 'saved' | 'relationship' | 'subscription';

export interface RecordedChange {
  before: Partial<EventDoc> | null;
  /** The stored document after the write; `_id` names the event. */
  after: Partial<EventDoc> & { _id: ObjectId };
  /** `source:<sourceId>` for a source's update, an admin's user id (24 hex) for an admin's edit. */
  by: string;
  at?: Date;
}

const BY = /^(source:.+|[0-9a-f]{24})$/;

/**
 * Compares the material fields (start and end time, venue, cancellation or status, registration
 * status) of a published event before and after one write. For each changed field it appends one
 * `eventChangeLog` row, sets `freshness.changedAt`, and queues one `eventNotificationJobs` row per rider
 * who saved the event, holds a relationship to it, or has a subscription matching it (before or after
 * the change): one row per rider per change, however many reasons. Every write is keyed (the change's
 * `changeKey`, worker/events/changes/material.ts) under a unique index, so a repeated or overlapping call
 * for the same write adds nothing. Answers the changed fields (none for an unpublished event).
 */
export async function recordEventChanges(store: Store, change: RecordedChange): Promise<MaterialField[]> {
  const { before, after, by, at = new Date() } = change;
  if (!BY.test(by)) throw new Error(`recordEventChanges: by must be "source:<id>" or an admin id, not "${by}".`);
  if (!before || !isPublished(before) || !isPublished(after)) return [];
  const changes = materialChanges(before, after);
  if (!changes.length) return [];
  const eventId = after._id;
  const stampedAt = after.updatedAt instanceof Date ? after.updatedAt : at;
  const changeKey = changeKeyOf(eventId.toHexString(), changes, stampedAt);
  const fields = changes.map((c) => c.field);

  const rows = changes.map(
    (c): AnyBulkWriteOperation<EventChangeLogDoc> => ({
      updateOne: {
        filter: { key: `${changeKey}:${c.field}` },
        update: {
          $setOnInsert: { eventId, field: c.field, before: c.before, after: c.after, at, by, changeKey },
        },
        upsert: true,
      },
    }),
  );
  await upsertByUniqueKey(store.eventChangeLog, rows);
  await markChanged(store, eventId, at);

  const riders = await recipients(store, before, after);
  const jobs = [...riders.values()].map(
    ({ userId, reasons }): AnyBulkWriteOperation<EventNotificationJobDoc> => ({
      updateOne: {
        filter: { jobKey: `change:${changeKey}:${userId.toHexString()}` },
        update: {
          $setOnInsert: {
            kind: 'change',
            userId,
            eventId,
            changeKey,
            fields,
            reasons: [...reasons],
            status: 'pending',
            dueAt: at,
            leaseId: null,
            leaseUntil: at,
            attemptCount: 0,
            createdAt: at,
            updatedAt: at,
          },
        },
        upsert: true,
      },
    }),
  );
  for (let start = 0; start < jobs.length; start += LIMITS.eventNotifications.fanOutBatch)
    await upsertByUniqueKey(
      store.eventNotificationJobs,
      jobs.slice(start, start + LIMITS.eventNotifications.fanOutBatch),
    );
  return fields;
}

/** `freshness.changedAt` moves forward only (a late, older write never sets it back); a null freshness becomes an object. */
async function markChanged(store: Store, eventId: ObjectId, at: Date): Promise<void> {
  await store.events.updateOne({ _id: eventId, 'freshness.changedAt': { $not: { $gte: at } } }, [
    { $set: { freshness: { $mergeObjects: [{ $ifNull: ['$freshness', {}] }, { changedAt: { $literal: at } }] } } },
  ]);
}

/** Who hears of a change to this event, each rider once, with every reason they have. */
async function recipients(store: Store, before: Partial<EventDoc>, after: Partial<EventDoc> & { _id: ObjectId }) {
  const riders = new Map<string, { userId: ObjectId; reasons: Set<ChangeReason> }>();
  const add = (userId: ObjectId, reason: ChangeReason) => {
    const key = userId.toHexString();
    const rider = riders.get(key) ?? { userId, reasons: new Set<ChangeReason>() };
    rider.reasons.add(reason);
    riders.set(key, rider);
  };
  const batchSize = LIMITS.eventNotifications.fanOutBatch;
  // event_saves keeps Live string ids (worker/events/saves/), older code ObjectIds: both forms; index eventId.
  for await (const save of store.event_saves.find(
    { eventId: { $in: idForms(after._id) as unknown as string[] } },
    { projection: { userId: 1 }, batchSize },
  )) {
    const userId = readId(save.userId);
    if (userId) add(userId, 'saved');
  }
  for await (const row of store.eventRelationships.find(
    { eventId: after._id },
    { projection: { userId: 1 }, batchSize },
  ))
    add(row.userId, 'relationship');
  // A rider whose filter matched where the event was, or matches where it is now, hears of the move.
  const [was, is] = await Promise.all([
    matchingSubscriptions(store, { ...before, _id: after._id }),
    matchingSubscriptions(store, after),
  ]);
  for (const sub of [...was, ...is]) add(sub.userId, 'subscription');
  return riders;
}
