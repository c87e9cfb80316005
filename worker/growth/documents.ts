import type { ObjectId } from 'mongodb';
import type { StoredDoc } from '../platform/db/stored-doc';

export interface AnalyticsEventDoc {
  _id: ObjectId;
  eventId: string;
  name: string;
  occurredAt: Date;
  receivedAt: Date;
  userId: ObjectId | null;
  anonymousId?: string | null;
  /** Sent with a valid token (with or without userId); absent on events stored before the field existed. */
  authenticated?: boolean;
  platform?: 'ios' | 'android' | 'web' | 'server';
  /** The client's session (interface spec envelope); absent on server events. */
  sessionId?: string;
  appVersion?: string;
  buildNumber?: number;
  /** Attribution (interface spec envelope `source`); absent on server events. */
  source?: {
    firstTouch: 'google' | 'instagram' | 'direct' | 'referral' | 'other';
    utmSource: string | null;
    landingPath: string;
  };
  schemaVersion: number;
  properties: Record<string, string | number | boolean | null>;
}

/**
 * An analytics event refused into quarantine (worker/growth/analytics/classify.ts) with why. Property
 * values are never kept, only their keys: a refused value may be the free text the rules keep out.
 */
export interface AnalyticsQuarantineDoc {
  _id: ObjectId;
  /** Only a well-formed UUID; a quarantined retry finds its first copy by it. */
  eventId?: string;
  /** Only a name shaped like one (lower snake case), known or not. */
  name?: string;
  reason: string;
  /** What failed: a path and a code per problem, never the offending value. */
  issues: { path: string; code: string }[];
  receivedAt: Date;
  /** The signed-in caller who sent it (never a userId the event claimed); null when anonymous. */
  userId: ObjectId | null;
  anonymousId?: string;
  schemaVersion?: number;
  platform?: string;
  appVersion?: string;
  propertyKeys: string[];
}

/** An experiment an admin defined (worker/growth/experiments/; docs/experiments.md). */
export interface ExperimentDoc extends StoredDoc {
  /** Unique, lower snake case; exposures and assignments name the experiment by it. */
  key: string;
  description?: string;
  /** control first; whole-percent weights summing to 100, frozen once the experiment has run. */
  variants: { key: string; weight: number }[];
  status: 'draft' | 'running' | 'stopped';
  platforms: ('ios' | 'android' | 'web')[];
  primaryMetric: 'progression' | 'discovery' | 'coaching' | 'community';
  /** First set to running; stopping and resuming keep it. */
  startedAt?: Date;
  stoppedAt?: Date;
}

/**
 * A unit's first exposure to an experiment (worker/growth/analytics/exposures.ts): the unit is a rider (`userId`) or, before
 * sign-in, an installation (`installationId`, the events' anonymousId); unique on (experimentKey, userId, installationId).
 */
export interface ExperimentExposureDoc extends StoredDoc {
  experimentKey: string;
  /** The rider; null for an installation unit. */
  userId: ObjectId | null;
  /** The installation; null for a rider unit. */
  installationId: string | null;
  variant: string;
  /** occurredAt of the earliest exposure event of the unit. */
  firstExposedAt: Date;
  /** On an installation unit: the rider who signed in on it and kept its variant; such a unit counts as that rider. */
  adoptedBy?: ObjectId;
  /** On a rider unit that kept an installation's variant: that installation. */
  adoptedFrom?: string;
}

// The interface spec, "Client installation and version policy": installations, their version changes, and the policies.

export type ClientPlatform = 'ios' | 'android' | 'web';
export type MobilePlatform = 'ios' | 'android';
export type NotificationCapability = 'granted' | 'denied' | 'provisional' | 'not-determined' | 'unsupported';

/** One current record per installation (unique installationId), upserted by worker/growth/client-heartbeat/service.ts. */
export interface ClientInstallationDoc extends StoredDoc {
  installationId: string;
  /** The account of the last heartbeat that carried a valid token; never unset by a signed-out heartbeat. */
  userId?: ObjectId;
  platform: ClientPlatform;
  appVersion: string;
  buildNumber: number;
  osFamily: string;
  deviceFamily: string;
  locale: string;
  timezone: string;
  notificationCapability: NotificationCapability;
  /** The earliest first-seen any heartbeat reported (never in the future), or the server's time of the first one. */
  firstSeenAt: Date;
  /** Server time of the newest heartbeat. */
  lastSeenAt: Date;
  /** Heartbeats received: each one's number orders the version changes exactly, whatever the clocks say. */
  heartbeats: number;
}

/** Append-only: one row per heartbeat that found a new (version, build); `from*` null on the first heartbeat. */
export interface ClientVersionChangeDoc {
  _id: ObjectId;
  installationId: string;
  /** The `_id` of the installation record that saw the change: a record deleted with its account and begun again counts anew. */
  installationRecordId: ObjectId;
  userId?: ObjectId;
  platform: ClientPlatform;
  fromVersion: string | null;
  fromBuild: number | null;
  toVersion: string;
  toBuild: number;
  /** The installation record's heartbeat number that saw the change (unique per record). */
  heartbeat: number;
  changedAt: Date;
  createdAt: Date;
}

/** The fields a client reads (the interface spec's version policy object). */
export interface VersionPolicyFields {
  latestVersion: string;
  minimumSupportedVersion: string;
  promptMode: 'optional' | 'required';
  title: string;
  message: string;
  storeUrl: string;
  effectiveAt: Date;
  gracePeriodHours: number;
}

/** One per mobile platform (unique platform); only worker/growth/version-policy/service.ts writes it, raising policyRevision by `$inc`. */
export interface MobileVersionPolicyDoc extends StoredDoc, VersionPolicyFields {
  platform: MobilePlatform;
  policyRevision: number;
}

/** Append-only audit row of one admin change; no route updates or deletes it (account deletion unsets actorId only). */
export interface MobileVersionPolicyChangeDoc {
  _id: ObjectId;
  platform: MobilePlatform;
  policyRevision: number;
  reason: string;
  actorId?: ObjectId;
  changedAt: Date;
  /** The policy as this revision set it. */
  policy: VersionPolicyFields;
}
