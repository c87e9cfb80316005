import type { ObjectId } from 'mongodb';

// Stored shape of events (the interface spec, "Event (Live stored shape)"). The collection has
// no validator: every field may be absent or empty, so readers treat each one as optional. Stored
// events and saves are read once through worker/events/stored-event.ts; what the doctor checks
// them against is worker/events/stored-shapes.ts.

export interface EventVenue {
  name?: string | null;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  lat?: number | null;
  lng?: number | null;
  /** Target model: street address, GeoJSON Point [lng, lat] (2dsphere), a linked spot. */
  address?: string | null;
  location?: { type: 'Point'; coordinates: [number, number] } | null;
  spotId?: ObjectId | null;
}

export interface EventOrganizer {
  name?: string | null;
  verified?: boolean | null;
  /** Target model: the canonical organizer (collection organizers) and its site. */
  canonicalId?: ObjectId | null;
  url?: string | null;
}

export interface EventSpectating {
  inPerson?: boolean | null;
  ticketUrl?: string | null;
  streamUrl?: string | null;
  streamStatus?: string | null;
  ticketPriceText?: string | null;
  broadcaster?: string | null;
}

/** One source's listing of the event (target model). */
export interface EventSourceRef {
  sourceId: string;
  externalId: string | null;
  url: string | null;
  sourceUpdatedAt: Date | null;
  fetchedAt: Date | null;
  payloadHash: string | null;
}

export interface EventDoc {
  _id: ObjectId;
  slug: string;
  dedupeKey: string;
  title?: string | null;
  description?: string | null;
  sports?: string[] | null;
  startAt?: Date | null;
  endAt?: Date | null;
  /** Currently always null (the interface spec). */
  timezone?: string | null;
  timeTba?: boolean | null;
  status?: 'scheduled' | 'completed' | 'cancelled' | null;
  isOnline?: boolean | null;
  venue?: EventVenue | null;
  organizer?: EventOrganizer | null;
  /** Inner fields are not fixed by the interface spec. */
  participation?: Record<string, unknown> | null;
  spectating?: EventSpectating | null;
  image?: string | null;
  series?: string | null;
  resultsUrl?: string | null;
  source?: string | null;
  sourceId?: string | null;
  sourceUrl?: string | null;
  /** Second connector only. */
  disciplines?: string[] | null;
  eventKinds?: string[] | null;
  intents?: string[] | null;
  level?: string[] | string | null;
  sourceTrust?: number | null;
  /** Hash of the content fields as last ingested (worker/events/ingestion/event-record.ts): an identical sighting only touches lastSeenAt. */
  contentHash?: string | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  lastSeenAt?: Date | null;
  /** Target model (worker/events/catalog/record-upgrade.ts); absent on Live records not yet migrated. */
  schemaVersion?: number;
  schedule?: { name: string; startAt: Date; endAt: Date | null }[];
  sourceRefs?: EventSourceRef[];
  freshness?: { lastVerifiedAt: Date | null; staleAfter: Date | null; changedAt: Date | null };
  approvalStatus?: 'pending' | 'approved' | 'rejected';
  relationshipCounts?: Record<string, number>;
  /** Live-view values the target shape cannot give back (worker/events/catalog/views.ts). */
  liveCompat?: Record<string, unknown>;
  /** A community submission (worker/events/submissions/): its rider, until they delete their account. */
  submittedBy?: ObjectId;
  submittedAt?: Date;
  /** Stored events a submission looks like (worker/events/submissions/duplicates.ts), for the reviewer. */
  possibleDuplicateOf?: ObjectId[];
  /** The admin desk's last review decision (worker/events/desk/). */
  review?: { decision: 'approve' | 'reject'; reason: string | null; by?: ObjectId; at: Date };
  /** Merged away (worker/events/desk/merge.ts): its id and slug resolve to this surviving event. */
  mergedInto?: ObjectId;
  mergedAt?: Date;
  mergedBy?: ObjectId;
}

/** A rider's relationship to an event: one per rider and event. */
export interface EventRelationshipDoc {
  _id: ObjectId;
  userId: ObjectId;
  eventId: ObjectId;
  relationship: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A canonical organizer; `aliases` are the normalized names ingestion maps onto it. */
export interface OrganizerDoc {
  _id: ObjectId;
  name: string;
  aliases: string[];
  url: string | null;
  createdAt: Date;
}

/** Ids stored as strings, as the Live events feature keeps them. */
export interface EventSaveDoc {
  _id: ObjectId;
  userId: string;
  eventId: string;
  createdAt: Date;
}

/** Where a resumable migration got to (worker/events/catalog/migration.ts). */
export interface MigrationCheckpointDoc {
  _id: string;
  lastId: ObjectId | null;
  migrated: number;
  done: boolean;
  updatedAt: Date;
}

/** One upstream item as last read; unique per (sourceId, externalId). */
export interface EventSourceRecordDoc {
  _id: ObjectId;
  sourceId: string;
  externalId: string;
  payload: unknown;
  payloadHash: string;
  dedupeKey: string;
  fetchedAt: Date;
  firstFetchedAt: Date;
}

/** A source's settings and health; `_id` is the source's name (worker/events/ingestion/sources.ts). */
export interface EventSourceDoc {
  _id: string;
  settings?: { setting: string; why: string };
  lastSuccessAt?: Date;
  lastFailureAt?: Date;
  lastError?: string | null;
  consecutiveFailures?: number;
  lastCounts?: { [count: string]: number };
  totals?: Record<string, number>;
}

/** One material field of a published event as one write changed it (worker/events/changes/). */
export interface EventChangeLogDoc {
  _id: ObjectId;
  eventId: ObjectId;
  /** `startAt`, `endAt`, `venue`, `status` or `registrationStatus` (worker/events/changes/material.ts). */
  field: string;
  before: unknown;
  after: unknown;
  at: Date;
  /** `source:<sourceId>` or an admin's user id (hex); never a rider (docs/event-notifications.md). */
  by: string;
  /** The write's key (one per recordEventChanges call that saw this change); `key` is unique. */
  changeKey: string;
  key: string;
}

/** A rider's saved filter of events (worker/events/subscriptions/). */
export interface EventSubscriptionDoc {
  _id: ObjectId;
  userId: ObjectId;
  name: string | null;
  sports: string[];
  disciplines: string[];
  eventKinds: string[];
  intents: string[];
  level: string[];
  place: { location: { type: 'Point'; coordinates: [number, number] }; radiusKm: number; label: string | null } | null;
  organizerId: ObjectId | null;
  /** The index keys this subscription is found by (worker/events/subscriptions/match-keys.ts). */
  matchKeys: string[];
  /** When its last digest went out: at most one per rolling 24 hours. */
  lastDigestAt: Date | null;
  /** Moves on every change: a PATCH writes only over the version it read. */
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One notification to one rider (worker/events/notifications/): a change to an event, or a subscription's digest. */
export interface EventNotificationJobDoc {
  _id: ObjectId;
  kind: 'change' | 'digest';
  userId: ObjectId;
  /**
   * Unique: `change:<changeKey>:<userId>` (one per rider per change, however many reasons), or
   * `digest:<subscriptionId>` while a digest is open (the next matches join it), then its own id once settled.
   */
  jobKey: string;
  status: 'pending' | 'sent' | 'skipped' | 'failed';
  dueAt: Date;
  leaseId: string | null;
  leaseUntil: Date;
  attemptCount: number;
  /** change: the event, the write's key, the fields it changed, why this rider hears of it. */
  eventId?: ObjectId;
  changeKey?: string;
  fields?: string[];
  reasons?: string[];
  /** digest: the subscription and the newly published events that matched it. */
  subscriptionId?: ObjectId;
  eventIds?: ObjectId[];
  /** digest: when it took its subscription's 24-hour window (a retry after quiet hours keeps it). */
  windowAt?: Date | null;
  outcomeReason?: string | null;
  sentAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One source's part of one ingestion run (worker/events/ingestion/runner.ts). Counts only, never who
 * started it: the run log holds no personal data, so account deletion has nothing to do here.
 */
export interface IngestionRunDoc {
  _id: ObjectId;
  /** Shared by the records of the sources run together. */
  runId: string;
  source: string;
  trigger: 'schedule' | 'admin';
  status: 'succeeded' | 'failed';
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  /** Upstream items read, usable or not. */
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Items the source listed more than once (same dedupe key): written once. */
  duplicates: number;
  /** Items with an unusable value, and writes the database refused. */
  failed: number;
  /** Listings left alone because the stored event they would write to could not be read (absent on older runs). */
  skipped?: number;
  /** Why the run failed: the shape change, the HTTP error or the missing setting; null on success. */
  error: string | null;
}

// What events keep on the rider's account.
declare module '../accounts/documents' {
  interface UserDoc {
    /** Event subscriptions held, kept by worker/events/subscriptions/service.ts (the per-rider limit); absent until the first. */
    eventSubscriptionCount?: number;
  }
}
