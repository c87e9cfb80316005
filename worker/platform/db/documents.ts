import type { ObjectId } from 'mongodb';
import type { StoredNotificationPreferences } from './push-documents';
import type { StoredDoc } from './stored-doc';

export * from './client-version-documents';
export * from './credit-documents';
export * from './event-documents';
export * from './ingestion-documents';
export * from './push-documents';
export * from './riding-documents';
export type { StoredDoc } from './stored-doc';

/**
 * Stored shapes, one interface a collection. Fields the interface spec names are typed here;
 * resources that are not built yet keep only the fields every document has.
 */

export type Role = 'admin' | null;

export interface SubscriptionState {
  plan: string;
  status: string;
  renewsAt?: Date | null;
  /** Set by the payment webhook (worker/billing/subscriptions/service.ts): billing interval of the paid plan. */
  interval?: 'month' | 'year';
  /** The provider event last applied, and its own time: older events never move the subscription back. */
  eventId?: string;
  eventCreatedAt?: Date;
}

export interface UserDoc extends StoredDoc {
  name: string;
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
   * address was unproved); tokens carry the version they were signed at (`tv`), absent meaning 0.
   */
  tokenVersion?: number;
  imageUri?: string;
  role: Role;
  appleUserId?: string;
  googleUserId?: string;
  subscription?: SubscriptionState;
  isBot?: boolean;
  analyticsExcluded?: boolean;
  /** Spot lists owned, kept by worker/riding/spot-lists/service.ts; absent until the first create or delete. */
  spotListCount?: number;
  /** Event subscriptions held, kept by worker/events/subscriptions/service.ts (the per-rider limit); absent until the first. */
  eventSubscriptionCount?: number;
  /** Only what the user set (worker/notifications/preferences/); the defaults fill the rest on read. */
  notificationPreferences?: StoredNotificationPreferences;
}

export interface FeedPostDoc extends StoredDoc {
  userId: ObjectId;
  text?: string;
  media: { type: 'image' | 'video'; url: string }[];
  spotId?: ObjectId;
  /** Kept exact by `$inc` from each reaction's and comment's write (worker/social/reactions/, worker/social/comments/). */
  counts: { love: number; respect: number; comments: number };
}

export interface ReactionDoc extends StoredDoc {
  postId: ObjectId;
  userId: ObjectId;
  type: 'love' | 'respect';
}

export interface FeedCommentDoc extends StoredDoc {
  postId: ObjectId;
  userId: ObjectId;
  text: string;
}

export interface SavedPostDoc extends StoredDoc {
  postId: ObjectId;
  userId: ObjectId;
}

/** The blocker is `userId` (worker/social/blocks/service.ts); one row per pair. */
export interface UserBlockDoc extends StoredDoc {
  userId: ObjectId;
  blockedUserId: ObjectId;
}

export type ReportTargetType = 'post' | 'comment' | 'user';
export type ReportReason = 'spam' | 'harassment' | 'hate' | 'violence' | 'nudity' | 'self-harm' | 'other';

/** A rider's report for the admin desk (worker/social/reports/); `reporterId` goes when the reporter deletes their account. */
export interface ReportDoc extends StoredDoc {
  reporterId?: ObjectId;
  targetType: ReportTargetType;
  targetId: ObjectId;
  /** The post a reported comment sits on, so removing it goes through worker/social/comments/service.ts. */
  postId?: ObjectId;
  reason: ReportReason;
  note?: string;
  status: 'open' | 'resolved';
  action?: 'remove' | 'dismiss';
  resolvedBy?: ObjectId;
  resolvedAt?: Date;
}

/** How far one participant has read a conversation (worker/social/conversations/service.ts moves it forward only). */
export interface ReadMarker {
  userId: ObjectId;
  /** The newest message read; null before the first read. */
  messageId: ObjectId | null;
  readAt: Date;
}

export interface ConversationDoc extends StoredDoc {
  participantIds: ObjectId[];
  /** The sorted participant ids joined (unique): the same set finds the same conversation. Unset once a participant's account is deleted. */
  participantKey?: string;
  /** Creation, then the newest message's time: the list's sort key. */
  lastActivityAt: Date;
  lastMessageId: ObjectId | null;
  readMarkers: ReadMarker[];
}

export interface DirectMessageDoc extends StoredDoc {
  conversationId: ObjectId;
  /** The sender; absent once their account is deleted (the message stays for the others). */
  userId?: ObjectId;
  text: string;
}

export interface ChatMessageDoc extends StoredDoc {
  userId: ObjectId;
  role: 'user' | 'assistant';
  text: string;
}

/**
 * The companion's web DM turns (POST /api/dm, worker/companion/transcript.ts) share dm_messages with
 * conversation messages: they carry `companion: true` and no conversationId, so no conversation query
 * ever matches them; `userId` is the rider on both the rider's and the companion's rows.
 */
export interface CompanionDirectMessageDoc extends ChatMessageDoc {
  companion: true;
}

export type CompanionStage = 'stranger' | 'acquaintance' | 'friend' | 'close_friend' | 'bestie';

/** One per rider (unique userId); written only by worker/companion/profile.ts in one atomic update per turn. */
export interface CompanionProfileDoc extends StoredDoc {
  userId: ObjectId;
  interactionCount: number;
  /** Follows interactionCount (worker/companion/stages.ts). */
  stage: CompanionStage;
  /** Newest last, deduplicated case-insensitively, capped at LIMITS.companion.factsMax. */
  facts: string[];
  /** What the rider wants to be called; the account name until they say otherwise. */
  name?: string;
  sports: string[];
  lastMood?: 'stoked' | 'frustrated' | 'tired' | 'nervous' | 'neutral';
  lastTurnAt: Date;
  /** When the current AI session began (LIMITS.companion.sessionGapMs). */
  sessionStartedAt: Date;
}

export interface ScheduledNotificationDoc extends StoredDoc {
  userId: ObjectId;
  listId: ObjectId;
  /** The list's longest-outstanding unfinished trick when planned; null when it had none (worker/riding/reminders/plan.ts). */
  trickId: ObjectId | null;
  category: 'reminder';
  scheduledFor: Date;
  status: 'pending' | 'sent' | 'cancelled' | 'failed';
  /** Hash of user, list, trick and scheduledFor (worker/riding/reminders/idempotency-key.ts); unique. */
  idempotencyKey: string;
  attemptCount: number;
  lastAttemptAt: Date | null;
  /** The batch of a reminder run holding the row, and until when (worker/riding/reminders/claims.ts). */
  leaseId: string | null;
  leaseUntil: Date;
  /** Set with status sent: which delivery path confirmed, and the trick the reminder carried. */
  sentAt?: Date;
  sentVia?: 'server' | 'local';
  sentTrickId?: ObjectId;
  /** Why a row is cancelled or failed (docs/reminders.md). */
  outcomeReason?: string;
}

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

export interface PaymentEventDoc {
  _id: ObjectId;
  providerEventId: string;
  type: string;
  /** The provider's own event time. */
  created: Date;
  /** Unset when the account is deleted or was never found. */
  userId?: ObjectId;
  receivedAt: Date;
  /** What applying it did; absent while (or if) the first delivery has not finished applying it. */
  outcome?: 'applied' | 'stale' | 'unknown-user';
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

/** Requests per UTC day that still present a legacy token (no session), for planning their sunset. */
export interface LegacyTokenUsageDoc {
  _id: string;
  requests: number;
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
