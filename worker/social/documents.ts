import type { ObjectId } from 'mongodb';
import type { Withheld } from '../moderation/documents';
import type { StoredDoc } from '../platform/db/stored-doc';
import type { MediaKind, MediaType, VideoType } from './media/sniff';

export interface FeedPostDoc extends StoredDoc {
  userId: ObjectId;
  text?: string;
  /** A link the client hosts, or one of the rider's uploads (`mediaId`, served at `url`). */
  media: { type: 'image' | 'video'; url: string; mediaId?: ObjectId }[];
  spotId?: ObjectId;
  /** Kept exact by `$inc` from each reaction's and comment's write (worker/social/reactions/, worker/social/comments/). */
  counts: { love: number; respect: number; comments: number };
  /** Held: shown to its author only (worker/social/visibility.ts) until a moderator decides. */
  withheld?: Withheld;
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
  /** As a post's. */
  withheld?: Withheld;
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

/**
 * A report for the admins' queue (worker/social/reports/): a rider's, whose `reporterId` goes when they delete their
 * account, or the moderation model's (`source: 'model'`, no reporter, the `categories` it flagged).
 */
export interface ReportDoc extends StoredDoc {
  reporterId?: ObjectId;
  targetType: ReportTargetType;
  targetId: ObjectId;
  /** The post a reported comment sits on, so removing it goes through worker/social/comments/service.ts. */
  postId?: ObjectId;
  reason: ReportReason;
  note?: string;
  status: 'open' | 'resolved';
  /** `model`: filed by the moderation model for content it held (no reporter; worker/social/review/hold.ts). */
  source?: 'model';
  /** The model's flagged categories (`harassment`, `violence/graphic`, …), for a `model` report. */
  categories?: string[];
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
  /** The text matched the word filter: shown folded (`filtered: true`) to participants who do not follow the sender. */
  filtered?: true;
}

/** One rider following another (worker/social/follows/); one row per direction and pair (a unique index). */
export interface FollowDoc extends StoredDoc {
  followerId: ObjectId;
  followedId: ObjectId;
}

/** Two riders who follow each other; formed when the second follow lands, removed when either unfollows. */
export interface HomieDoc extends StoredDoc {
  /** The two ids, sorted. */
  riderIds: ObjectId[];
  /** The sorted ids joined (unique): the same pair forms once, also when both follow at the same moment. */
  pairKey: string;
}

/** Where a media item is shown; absent while only its owner sees it. */
export type MediaAttachment = { kind: 'post'; postId: ObjectId } | { kind: 'profile' };

/** A rider's photo or video stored in the MEDIA bucket under `key` (worker/social/media/). */
export interface MediaDoc extends StoredDoc {
  ownerId: ObjectId;
  key: string;
  /** Sniffed from the bytes, never taken from the client. */
  type: MediaType;
  kind: MediaKind;
  bytes: number;
  width?: number;
  height?: number;
  durationMs?: number;
  /** The object's ETag, as served. */
  etag: string;
  attachedTo?: MediaAttachment;
  /** Set when moderation removed its post: served to no one, deleted after LIMITS.media.hiddenDays. */
  hiddenAt?: Date;
  /** A photo the moderation model flagged: served to its owner only; a post it is attached to is held too. */
  withheld?: { reason: 'review'; at: Date; categories: string[] };
}

/** What the moderation model checks later, when it could not answer at write time (worker/social/review/). */
export type CheckTarget = { type: 'post' | 'comment' | 'media'; id: ObjectId };

/** A later check: pending until the model answered (or it was given up), worked by the cron pass under a lease. */
export interface ContentCheckDoc extends StoredDoc {
  target: CheckTarget;
  status: 'pending' | 'clear' | 'flagged' | 'gone' | 'abandoned';
  /** When the next try is due; the soonest are claimed first. */
  dueAt: Date;
  attempts: number;
  lastError?: string;
  leaseId: string | null;
  leaseUntil: Date;
}

/** A video upload in progress: an R2 multipart upload and the parts that arrived. Its id becomes the media's. */
export interface MediaUploadDoc extends StoredDoc {
  ownerId: ObjectId;
  key: string;
  r2UploadId: string;
  /** What the client declared; the sniffed type replaces it when part 1 arrives. */
  type: VideoType;
  bytes: number;
  partBytes: number;
  /** Part number → what R2 answered for it; each part is set on its own, so parts may arrive in any order. */
  parts: Record<string, { etag: string; bytes: number }>;
  /** Set while one complete works on the upload: a second complete or a late part is refused meanwhile. */
  completingAt?: Date;
}

/** Bytes a rider uploaded on one UTC day; `_id` is `<userId>:<YYYY-MM-DD>`, moved by one conditional `$inc`. */
export interface MediaUsageDoc {
  _id: string;
  userId: ObjectId;
  day: string;
  bytes: number;
}

// What social keeps on the rider's account.
declare module '../accounts/documents' {
  interface UserDoc {
    /** Riders following this one; moved only by the write that stored or removed a follow (worker/social/follows/service.ts). */
    followerCount?: number;
    /** Riders this one follows; moved the same way. */
    followingCount?: number;
  }
}
