import type { AnyBulkWriteOperation, ObjectId } from 'mongodb';
import { upsertByUniqueKey } from '../../platform/db/bulk-upsert';
import type { Store } from '../../platform/db/store';
import { isPublished } from '../changes/material';
import type { EventDoc, EventNotificationJobDoc, EventSubscriptionDoc } from '../documents';
import { readEventSubscriptions } from '../stored-subscription';
import { eventKeys, matches } from './match-keys';

// Matching one event against every subscription, through the multikey index
// `eventSubscriptions.matchKeys` (worker/events/subscriptions/match-keys.ts explains the keys).

/** The index the candidate query is written for (bench/event-subscriptions-match.ts prints it). */
export const MATCH_INDEX = 'matchKeys';

const CRITERIA = {
  _id: 1,
  userId: 1,
  sports: 1,
  disciplines: 1,
  eventKinds: 1,
  intents: 1,
  level: 1,
  place: 1,
  organizerId: 1,
} as const;

export type MatchedSubscription = Pick<EventSubscriptionDoc, keyof typeof CRITERIA>;

/** The candidate query: subscriptions stored under any key the event could be found by. */
export function candidateFilter(event: Partial<EventDoc>) {
  return { matchKeys: { $in: eventKeys(event) } };
}

/** Every subscription the event matches: one indexed query for the candidates, then each one's full check. */
export async function matchingSubscriptions(store: Store, event: Partial<EventDoc>): Promise<MatchedSubscription[]> {
  const keys = eventKeys(event);
  if (!keys.length) return [];
  const candidates = await store.eventSubscriptions.find(candidateFilter(event), { projection: CRITERIA }).toArray();
  return readEventSubscriptions(candidates).filter((sub) => matches(sub, event));
}

/**
 * Called when an event becomes published: a new approved source listing (worker/events/ingestion/bulk-writer.ts)
 * or an admin's approval. Each matching subscription's open digest job gains the event (one open digest
 * per subscription, a unique `jobKey`; `$addToSet`, so a repeated call adds nothing); the notification
 * worker sends it on its next run when the subscription's 24-hour window allows, else when it opens.
 * Answers how many subscriptions matched. With `previously` (the stored document before a source's
 * update) only subscriptions the earlier version did not match count.
 */
export async function onEventPublished(
  store: Store,
  event: Partial<EventDoc> & { _id: ObjectId },
  now = new Date(),
  options: { previously?: Partial<EventDoc> } = {},
): Promise<{ matched: number }> {
  if (!isPublished(event)) return { matched: 0 };
  const { previously } = options;
  // A published event whose sports, place, … a source just filled in reaches the subscriptions it
  // matches only now; those it already matched heard of it when it was published.
  const subscriptions = (await matchingSubscriptions(store, event)).filter(
    (sub) => !previously || !isPublished(previously) || !matches(sub, previously),
  );
  const operations = subscriptions.map(
    (sub): AnyBulkWriteOperation<EventNotificationJobDoc> => ({
      updateOne: {
        filter: { jobKey: openDigestKey(sub._id) },
        update: {
          $addToSet: { eventIds: event._id },
          $set: { updatedAt: now },
          $setOnInsert: {
            kind: 'digest',
            userId: sub.userId,
            subscriptionId: sub._id,
            status: 'pending',
            dueAt: now,
            leaseId: null,
            leaseUntil: now,
            attemptCount: 0,
            createdAt: now,
          },
        },
        upsert: true,
      },
    }),
  );
  await upsertByUniqueKey(store.eventNotificationJobs, operations);
  return { matched: subscriptions.length };
}

/** The jobKey of a subscription's digest while it still takes events (worker/events/notifications/claims.ts closes it). */
export const openDigestKey = (subscriptionId: ObjectId) => `digest:${subscriptionId.toHexString()}`;
