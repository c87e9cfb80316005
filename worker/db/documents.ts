import type { ObjectId } from 'mongodb';

/**
 * Stored shapes, one interface a collection. Fields the interface spec names are typed here;
 * resources that are not built yet keep only the fields every document has.
 */
export interface StoredDoc {
  _id: ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

export type Role = 'admin' | null;

export interface SubscriptionState {
  plan: string;
  status: string;
  renewsAt?: Date | null;
  /** Set by the payment webhook (worker/subscriptions/service.ts): billing interval of the paid plan. */
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
  imageUri?: string;
  role: Role;
  appleUserId?: string;
  googleUserId?: string;
  subscription?: SubscriptionState;
  isBot?: boolean;
  analyticsExcluded?: boolean;
  /** Spot lists owned, kept by worker/spot-lists/service.ts; absent until the first create or delete. */
  spotListCount?: number;
}

export interface TrickListDoc extends StoredDoc {
  userId: ObjectId;
  name: string;
  /** One of SPORTS in worker/taxonomies.ts (db/ sits below it, so typed as a string here). */
  sport: string;
  /** Absent on lists stored before cadences existed: read as `weekly`, the spec's default. */
  reminderCadence?: 'off' | 'daily' | '3x-week' | 'weekly';
  lastOpenedAt?: Date;
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
  /** One of SPORTS in worker/taxonomies.ts. */
  sport: string;
  /** The slug of a category (worker/categories/); its `entryCount` counts this entry. */
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
  /** `name` folded for the duplicate rule (worker/stays/normalise.ts); never shown. */
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

export interface FeedPostDoc extends StoredDoc {
  userId: ObjectId;
  text?: string;
  media: { type: 'image' | 'video'; url: string }[];
  spotId?: ObjectId;
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

export interface ConversationDoc extends StoredDoc {
  participantIds: ObjectId[];
}

export interface ChatMessageDoc extends StoredDoc {
  userId: ObjectId;
  role: 'user' | 'assistant';
  text: string;
}

export interface CompanionProfileDoc extends StoredDoc {
  userId: ObjectId;
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

export interface PushTokenDoc extends StoredDoc {
  userId: ObjectId;
  token: string;
  platform: 'ios' | 'android' | 'web';
  deadAt?: Date | null;
}

export interface ScheduledNotificationDoc extends StoredDoc {
  userId: ObjectId;
  idempotencyKey: string;
  scheduledFor: Date;
  status: 'pending' | 'sent' | 'cancelled' | 'failed';
}

export interface EventDoc extends StoredDoc {
  slug: string;
  dedupeKey: string;
  title: string;
  startAt: Date;
  sports: string[];
  status: 'scheduled' | 'completed';
}

/** Ids stored as strings, as the Live events feature keeps them. */
export interface EventSaveDoc {
  _id: ObjectId;
  userId: string;
  eventId: string;
  createdAt: Date;
}

export interface AnalyticsEventDoc {
  _id: ObjectId;
  eventId: string;
  name: string;
  occurredAt: Date;
  receivedAt: Date;
  userId: ObjectId | null;
  anonymousId?: string | null;
  platform?: 'ios' | 'android' | 'web' | 'server';
  schemaVersion: number;
  properties: Record<string, string | number | boolean | null>;
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
