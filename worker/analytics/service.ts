import { ObjectId } from 'mongodb';
import type { Store } from '../db/store';

export type SignUpMethod = 'password' | 'google' | 'apple';

/**
 * Records a sign-up server-side, at account creation, so it is counted even when the
 * client's own analytics never fire (interface spec: identity-provider sign-ups are recorded here).
 */
export async function recordSignUp(store: Store, userId: ObjectId, method: SignUpMethod): Promise<void> {
  const now = new Date();
  await store.analytics_events.insertOne({
    _id: new ObjectId(),
    eventId: crypto.randomUUID(),
    name: 'signup_completed',
    occurredAt: now,
    receivedAt: now,
    userId,
    anonymousId: null,
    platform: 'server',
    schemaVersion: 1,
    properties: { method },
  });
}

/** Properties of a server-recorded event: ids, counts and bounded enums only, never free text (interface spec). */
export type ServerEventProperties = Record<string, string | number | boolean | null>;

/** Records an event the service itself observed (the AI events of worker/companion/), in the client envelope's shape. */
export async function recordServerEvent(
  store: Store,
  userId: ObjectId,
  name: string,
  properties: ServerEventProperties,
): Promise<void> {
  const now = new Date();
  await store.analytics_events.insertOne({
    _id: new ObjectId(),
    eventId: crypto.randomUUID(),
    name,
    occurredAt: now,
    receivedAt: now,
    userId,
    anonymousId: null,
    platform: 'server',
    schemaVersion: 1,
    properties,
  });
}
