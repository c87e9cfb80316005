import type { ObjectId } from 'mongodb';
import type { StoredDoc } from '../platform/db/stored-doc';

export interface ScheduledNotificationDoc extends StoredDoc {
  userId: ObjectId;
  listId: ObjectId;
  /** The trick it reminds of: the list's longest-outstanding unfinished one when planned, and again when that one is landed or deleted; null when none. */
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

// Stored shapes of the riding content: trick lists, the encyclopedia, spots with stays, spot lists, reviews, trick history.

export interface TrickListDoc extends StoredDoc {
  userId: ObjectId;
  name: string;
  /** One of SPORTS in worker/platform/sports.ts (db/ sits below it, so typed as a string here). */
  sport: string;
  /** Absent on lists stored before cadences existed: read as `weekly`, the spec's default. */
  reminderCadence?: 'off' | 'daily' | '3x-week' | 'weekly';
  lastOpenedAt?: Date;
  /** Set when the 60-day auto-pause turned reminders off; cleared by the next open (worker/riding/reminders/auto-pause.ts). */
  remindersPausedAt?: Date;
  /** On a list never opened: when its 60 days without an open started counting (the first reminder run that saw it). */
  autoPauseFrom?: Date;
}

export interface TrickDoc extends StoredDoc {
  userId: ObjectId;
  listId: ObjectId;
  name: string;
  trickipediaId?: ObjectId;
  status: 'todo' | 'learning' | 'landed';
  attempts: number;
  landedAt?: Date | null;
  completed: boolean;
}

export interface TrickipediaDoc extends StoredDoc {
  name: string;
  /** Unique; from the name when not given. */
  slug: string;
  /** One of SPORTS in worker/platform/sports.ts. */
  sport: string;
  /** The slug of a category (worker/riding/categories/); its `entryCount` counts this entry. */
  category: string;
  description: string;
  difficulty?: number;
  aliases: string[];
  videoUrl?: string;
}

export interface SpotListDoc extends StoredDoc {
  userId: ObjectId;
  name: string;
  spotIds: ObjectId[];
}

/** The kinds of stay (interface spec, Stay table); the one list schemas, services and tests use. */
export const STAY_TYPES = ['hotel', 'hostel', 'airbnb', 'campground', 'lodge', 'other'] as const;

export interface StayDoc {
  /** A 24-hex ObjectId string: the interface spec types a stay's _id as a string. */
  _id: string;
  name: string;
  /** `name` folded for the duplicate rule (worker/riding/stays/normalise.ts); never shown. */
  nameKey: string;
  type: (typeof STAY_TYPES)[number];
  priceLevel?: number;
  nightlyPriceMin?: number;
  nightlyPriceMax?: number;
  rating?: number;
  reviewCount?: number;
  distanceKm?: number;
  bookingUrl?: string;
  imageUrl?: string;
  address?: string;
  city?: string;
  state?: string;
  country?: string;
  source?: string;
  sourceConfidence?: number;
  notes?: string;
  tags?: string[];
  createdAt: Date;
  updatedAt: Date;
  createdBy?: ObjectId;
}

export interface SpotDoc extends StoredDoc {
  name: string;
  sports: string[];
  description?: string;
  address?: string;
  city?: string;
  state?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  /** GeoJSON Point, `[longitude, latitude]`, under the 2dsphere index `location_2dsphere`. */
  location?: { type: 'Point'; coordinates: [number, number] };
  createdBy?: ObjectId;
  stays?: StayDoc[];
}

/** A deleted spot, kept so the browser extension's sync learns of the deletion (TTL: LIMITS.spotTombstoneDays). */
export interface SpotTombstoneDoc extends StoredDoc {
  /** The deleted spot's id. */
  _id: ObjectId;
  deletedAt: Date;
}

export interface SpotReviewDoc extends StoredDoc {
  spotId: ObjectId;
  userId: ObjectId;
  rating: number;
  text?: string;
}

export interface SpotTrickHistoryDoc extends StoredDoc {
  spotId: ObjectId;
  userId: ObjectId;
  trickName: string;
  trickipediaId?: ObjectId;
  landedAt: Date;
  videoUrl?: string;
}

export interface BlogPostDoc extends StoredDoc {
  title: string;
  /** Unique; from the title when not given. */
  slug: string;
  /** Markdown. */
  body: string;
  excerpt?: string;
  coverImageUrl?: string;
  /** Trimmed, lower-cased, no repeats. */
  tags: string[];
  status: 'draft' | 'published';
  /** Set when first published; kept if the post goes back to draft. */
  publishedAt?: Date;
  /** The admin who wrote it; removed when that account is deleted. */
  authorId?: ObjectId;
}

export interface CategoryDoc extends StoredDoc {
  name: string;
  /** Unique; what trickipedia entries reference. */
  slug: string;
  sport?: string;
  /** Trickipedia entries referencing this category, counted before each entry is written. */
  entryCount: number;
}

// What riding keeps on the rider's account.
declare module '../accounts/documents' {
  interface UserDoc {
    /** Spot lists owned, kept by worker/riding/spot-lists/service.ts; absent until the first create or delete. */
    spotListCount?: number;
  }
}
