import { ObjectId } from 'mongodb';
import type { z } from 'zod';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import { describeError, logEvent } from '../../platform/ops/log-line';
import type { ANALYTICS_EVENTS } from './taxonomy';
import { SERVER_PLATFORM } from './taxonomy';

type Events = typeof ANALYTICS_EVENTS;
/** The names the API records itself: those whose counted copy is the server's (worker/growth/analytics/taxonomy.ts). */
export type ServerEventName = {
  [N in keyof Events]: Events[N]['countedFrom'] extends 'server' ? N : never;
}[keyof Events];
export type ServerEventProperties<N extends ServerEventName> = z.input<Events[N]['properties']>;

/**
 * Records an action the API itself performed, in the client envelope's shape with platform
 * `server`, so the dashboard counts it even when the client sends nothing. Called once at each
 * write site, after the write: a failure to record is logged and never fails the write.
 */
export async function recordServerEvent<N extends ServerEventName>(
  store: Store,
  userId: ObjectId,
  name: N,
  properties: ServerEventProperties<N>,
): Promise<void> {
  const now = new Date();
  try {
    await store.analytics_events.insertOne({
      _id: new ObjectId(),
      eventId: crypto.randomUUID(),
      name,
      occurredAt: now,
      receivedAt: now,
      userId,
      anonymousId: null,
      platform: SERVER_PLATFORM,
      schemaVersion: LIMITS.analytics.schemaVersion,
      properties: properties as Record<string, string | number | boolean | null>,
    });
  } catch (err) {
    logEvent('analytics.server-event.failed', { name, userId: userId.toHexString(), error: describeError(err) });
  }
}
