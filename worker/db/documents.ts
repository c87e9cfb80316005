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
}

export interface TrickListDoc extends StoredDoc {
  userId: ObjectId;
  name: string;
  reminderCadence?: 'off' | 'daily' | '3x-week' | 'weekly';
  lastOpenedAt?: Date;
}

export interface TrickDoc extends StoredDoc {
  userId: ObjectId;
  listId: ObjectId;
  name: string;
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

export interface StayDoc {
  _id: string;
  name: string;
  type: 'hotel' | 'hostel' | 'airbnb' | 'campground' | 'lodge' | 'other';
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
  city?: string;
  state?: string;
  country?: string;
  location?: { type: 'Point'; coordinates: [number, number] };
  createdBy?: ObjectId;
  stays?: StayDoc[];
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
  receivedAt: Date;
}
