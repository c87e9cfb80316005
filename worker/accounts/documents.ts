import type { ObjectId } from 'mongodb';
import type { Withheld } from '../moderation/documents';
import type { StoredDoc } from '../platform/db/stored-doc';

// The accounts domain's stored shapes. The rider's account (users) also carries fields other domains keep on
// it (a subscription, notification preferences, counters): each of those domains adds its own to UserDoc
// beside its documents, so this file names none of them.

export type Role = 'admin' | null;

export interface UserDoc extends StoredDoc {
  name: string;
  /** The name's words as search compares them (worker/accounts/users/name-words.ts); set on every write of `name`. */
  nameWords?: string[];
  email: string;
  /** bcrypt hash; absent for identity-provider-only accounts. */
  password?: string;
  /**
   * Whether the address is proved to be the rider's: true when it came from Google (email_verified) or Apple;
   * false for a password registration or an address the rider changed. Absent on accounts stored before the
   * field: read through `addressProved` (worker/accounts/users/address-proof.ts), which counts a provider id as proof.
   */
  emailVerified?: boolean;
  /**
   * Raised when every token issued so far must stop working (an identity provider took over an account whose
   * address was unproved, sign-out everywhere, a password change); tokens carry the version they were signed
   * at (`tv`), absent meaning 0.
   */
  tokenVersion?: number;
  /**
   * Opt-in sessions revoked on their own whose access tokens may still be before `exp`: read with the account by
   * every access check, so no session read is needed; entries go once `until` (the last access token's expiry) passes.
   */
  revokedSessions?: RevokedSession[];
  imageUri?: string;
  role: Role;
  appleUserId?: string;
  googleUserId?: string;
  isBot?: boolean;
  analyticsExcluded?: boolean;
  /** The profile is shown to the rider only until a moderator decides (three riders reported it). */
  withheld?: Withheld;
  /**
   * Set by an admin's suspension, unset when lifted (worker/accounts/suspension/): while it is active (until null or
   * in the future) every access check refuses the rider but for reading their own account and signing out.
   */
  suspension?: Suspension;
}

/**
 * A rider's suspension: until when (null: until lifted), why, by which admin, and when it was set. The service
 * writes all four; `by` goes when that admin's account is deleted, and either may be unreadable as stored.
 */
export interface Suspension {
  until: Date | null;
  reason: string;
  by?: ObjectId;
  at?: Date;
}

/** A revoked session's id (a token's `sid`) and when the last access token it can have issued expires. */
export interface RevokedSession {
  sid: string;
  until: Date;
}

/**
 * One opt-in sign-in and every refresh token descended from it (worker/accounts/sessions/, docs/sessions.md).
 * Only SHA-256 hashes of refresh tokens are stored; `familyId` is the token's public prefix.
 */
export interface SessionDoc extends StoredDoc {
  userId: ObjectId;
  familyId: string;
  /** Hash of the one live refresh token. */
  tokenHash: string;
  /** Hash of the token spent by the last rotation, answered again within the grace window. */
  previousHash?: string;
  rotatedAt?: Date;
  /** From the sign-in's `user-agent`, cut to LIMITS.sessions.deviceMax. */
  device: string;
  lastUsedAt: Date;
  /** 60 days (setting) from the last use; the TTL index removes the session then. */
  expiresAt: Date;
  /** Set by sign-out, password change or reuse of a spent token; refreshes then answer 401. */
  revokedAt?: Date | null;
}

/** Where a rider's copy of their data is (docs/data-export.md): the one list of its states. */
export const EXPORT_STATES = ['queued', 'building', 'ready', 'failed', 'expired'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** Why an export is `failed`, as stored; the rider reads each as a sentence (worker/accounts/exports/views.ts). */
export const EXPORT_FAILURES = ['build-failed', 'build-interrupted'] as const;
export type ExportFailure = (typeof EXPORT_FAILURES)[number];

/**
 * One copy of a rider's data asked for on one UTC day (data_exports; worker/accounts/exports/). A background run
 * claims a queued one under a lease, writes the ZIP to the MEDIA bucket under `key`, and marks it ready.
 */
export interface DataExportDoc extends StoredDoc {
  riderId: ObjectId;
  /** The UTC day it was asked on, `YYYY-MM-DD`: unique with riderId, so a rider gets one a day. */
  day: string;
  state: ExportState;
  /** The admin who started it for the rider (answering a request by mail); absent when the rider asked. */
  requestedBy?: ObjectId;
  /**
   * When the background run must next act on it: a queued export's next attempt, a building one's lease end,
   * a ready one's expiry. One field, so one index serves every run's query.
   */
  dueAt: Date;
  /** Builds started so far. */
  attempts: number;
  /** The build that holds it while `building`; a settlement writes only while it still does. */
  leaseId: string | null;
  /** The file in the MEDIA bucket: set when claimed, so a deletion mid-build knows which object to remove. */
  key?: string;
  /** The file's size, once ready. */
  bytes?: number;
  readyAt?: Date;
  /** When a ready file is deleted (LIMITS.dataExports.keepDays after it was ready). */
  expiresAt?: Date;
  failure?: ExportFailure;
}
