import { type Db, ObjectId } from 'mongodb';
import { COUNTED_FROM, isAnalyticsEventName, SERVER_PLATFORM } from '../../worker/growth/analytics/taxonomy';

/** Seeds riders and analytics events straight into a database, for the dashboard tests and bench. */

export type Exclusion = { role?: 'admin'; isBot?: true; analyticsExcluded?: true };

let riders = 0;

/** A stored account created at `createdAt`, with any exclusion flag. */
export async function seedRider(db: Db, createdAt: Date, exclusion: Exclusion = {}): Promise<ObjectId> {
  const _id = new ObjectId();
  riders += 1;
  await db.collection('users').insertOne({
    _id,
    name: `Seeded ${riders}`,
    email: `seeded-${riders}-${_id.toHexString()}@analytics.test`,
    role: exclusion.role ?? null,
    ...(exclusion.isBot ? { isBot: true } : {}),
    ...(exclusion.analyticsExcluded ? { analyticsExcluded: true } : {}),
    createdAt,
    updatedAt: createdAt,
  });
  return _id;
}

export interface SeedEvent {
  name: string;
  at: Date;
  userId?: ObjectId | null;
  /** Default: `server` for the names the API records itself (as it stores them), `ios` for the others. */
  platform?: 'ios' | 'android' | 'web' | 'server';
  /** Sent with a valid token; default: when it names a user. */
  authenticated?: boolean;
  /** Received at, when it differs from `at`. */
  receivedAt?: Date;
  properties?: Record<string, unknown>;
  envelope?: { appVersion?: string; buildNumber?: number; sessionId?: string; anonymousId?: string };
}

const defaultPlatform = (name: string) =>
  isAnalyticsEventName(name) && COUNTED_FROM[name] === 'server' ? SERVER_PLATFORM : 'ios';

/** The stored form of an event, as ingestion stores it (worker/growth/documents.ts AnalyticsEventDoc). */
export function eventDoc(event: SeedEvent) {
  return {
    _id: new ObjectId(),
    eventId: crypto.randomUUID(),
    name: event.name,
    occurredAt: event.at,
    receivedAt: event.receivedAt ?? event.at,
    userId: event.userId ?? null,
    authenticated: event.authenticated ?? Boolean(event.userId),
    platform: event.platform ?? defaultPlatform(event.name),
    schemaVersion: 1,
    properties: event.properties ?? {},
    ...event.envelope,
  };
}

export async function seedEvents(db: Db, events: SeedEvent[]): Promise<void> {
  if (events.length) await db.collection('analytics_events').insertMany(events.map(eventDoc));
}

export const DAY = 24 * 60 * 60 * 1000;
export const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);
