import type { ObjectId } from 'mongodb';
import { incrementCounters } from '../../platform/db/counter-update';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { readOne } from '../../platform/db/stored-values';
import { eventIdIs } from '../catalog/service';
import { type EventRelationship, NO_RELATIONSHIP_COUNTS, PUBLISHED } from '../catalog/vocabulary';
import type { EventDoc } from '../documents';
import { readEvent, readEvents } from '../stored-event';

// Every query on a rider's relationship to an event: one row per rider and
// event (a unique index), and the event's relationshipCounts moved by $inc from what that row was.

export type RelationshipChoice = EventRelationship | 'none';

/**
 * The row's atomic swap answers what it held before, so each change moves the counts by exactly
 * its own transition however many changes race (test/worker/events/event-relationships.test.ts).
 */
async function swap(store: Store, key: { userId: ObjectId; eventId: ObjectId }, next: RelationshipChoice) {
  if (next === 'none') return (await store.eventRelationships.findOneAndDelete(key))?.relationship ?? null;
  const now = new Date();
  const write = () =>
    store.eventRelationships.findOneAndUpdate(
      key,
      { $set: { relationship: next, updatedAt: now }, $setOnInsert: { createdAt: now } },
      { upsert: true, returnDocument: 'before' },
    );
  // Two first changes at once: the unique index lets one insert; the other now updates that row.
  return (await onDuplicateKey(write, write))?.relationship ?? null;
}

const countsOf = (event: EventDoc | null) => ({
  ...NO_RELATIONSHIP_COUNTS,
  ...(readOne('events', event, readEvent)?.relationshipCounts ?? {}),
});

/** Sets (or with `none` removes) the rider's relationship; 'not-found' for an unknown or unpublished event. */
export async function setRelationship(store: Store, eventId: ObjectId, userId: ObjectId, next: RelationshipChoice) {
  const exists = await store.events.findOne({ ...eventIdIs(eventId), ...PUBLISHED }, { projection: { _id: 1 } });
  if (!exists) return 'not-found' as const;
  const before = await swap(store, { userId, eventId }, next);
  const inc: Record<string, number> = {};
  if (before && before !== next) inc[`relationshipCounts.${before}`] = -1;
  if (next !== 'none' && before !== next) inc[`relationshipCounts.${next}`] = 1;
  const event = Object.keys(inc).length
    ? await store.events.findOneAndUpdate({ _id: exists._id }, incrementCounters(inc), {
        returnDocument: 'after',
        projection: { relationshipCounts: 1 },
      })
    : await store.events.findOne({ _id: exists._id }, { projection: { relationshipCounts: 1 } });
  return { relationship: next, relationshipCounts: countsOf(event) };
}

/** A page of the rider's relationships, newest first (`limit + 1` rows for the pager). */
export function listRelationships(
  store: Store,
  userId: ObjectId,
  page: { limit: number; cursor?: ObjectId; relationship?: EventRelationship },
) {
  return store.eventRelationships
    .find({
      userId,
      ...(page.relationship ? { relationship: page.relationship } : {}),
      ...(page.cursor ? { _id: { $lt: page.cursor } } : {}),
    })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export async function publishedEventsByIds(store: Store, ids: ObjectId[]) {
  return readEvents(await store.events.find({ _id: { $in: ids }, ...PUBLISHED }).toArray());
}
