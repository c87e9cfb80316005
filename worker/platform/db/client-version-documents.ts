import type { ObjectId } from 'mongodb';
import type { StoredDoc } from './stored-doc';

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
