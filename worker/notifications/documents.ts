import type { ObjectId } from 'mongodb';
import type { StoredDoc } from '../platform/db/stored-doc';

// The interface spec's "Push token", "Notification preferences" and "Push notifications": the one module of
// their enums (schemas, the sender and tests import these lists), and the stored shapes.

/**
 * The interface spec's two, `events` (changes to events a rider follows, subscription digests), and `account`
 * (notices about the rider's own account, such as a suspension: no preference turns them off, quiet hours do not hold them).
 */
export const PUSH_CATEGORIES = ['messages', 'reminders', 'events', 'account'] as const;
export type PushCategory = (typeof PUSH_CATEGORIES)[number];

export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** `gateway` is Expo's push service (worker/notifications/push/expo-client.ts), `webpush` a browser's push service (worker/notifications/push/web-push.ts); the native transports are not sent to yet. */
export const PUSH_TRANSPORTS = ['gateway', 'android_native', 'ios_native', 'webpush'] as const;
export type PushTransport = (typeof PUSH_TRANSPORTS)[number];

export const DEAD_REASONS = ['DeviceNotRegistered', '410-Gone'] as const;
export type DeadReason = (typeof DEAD_REASONS)[number];

export const OS_PERMISSION_STATES = ['granted', 'denied', 'unknown', 'provisional'] as const;
export type OsPermissionState = (typeof OS_PERMISSION_STATES)[number];

/** One device address of a user (unique token); web subscriptions store their endpoint as the token. */
export interface PushTokenDoc extends StoredDoc {
  userId: ObjectId;
  token: string;
  platform: PushPlatform;
  transport: PushTransport;
  endpoint?: string;
  keys?: { p256dh: string; auth: string };
  appVersion?: string;
  deviceModel?: string;
  locale?: string;
  timezone?: string;
  lastSeenAt: Date;
  /** Set once the push service says the address is gone; a TTL index purges the token 30 days later. */
  deadAt: Date | null;
  deadReason: DeadReason | null;
}

export interface ChannelPreferences {
  push: boolean;
  inApp: boolean;
  email: boolean;
}

export interface QuietHours {
  /** HH:mm, local wall-clock time in `timezone`. */
  start: string;
  end: string;
  /** IANA time zone. */
  timezone: string;
}

/**
 * The in-app soft ask before the OS permission prompt, per platform (interface spec: the OS prompt only after
 * acceptance, a declined ask repeated no sooner than 7 days later): the times the client reports.
 */
export interface SoftAskRecord {
  shownAt?: Date;
  declinedAt?: Date;
  acceptedAt?: Date;
}

/** The preferences as a client sees them: every field present (worker/notifications/preferences/defaults.ts). */
export interface NotificationPreferences {
  messages: ChannelPreferences;
  reminders: ChannelPreferences;
  events: ChannelPreferences;
  quietHours: QuietHours;
  osPermission: Record<PushPlatform, OsPermissionState>;
  softAsk: Record<PushPlatform, SoftAskRecord>;
  updatedAt: Date | null;
}

/** As stored on the user: only what the user set; the defaults fill the rest on every read. */
export interface StoredNotificationPreferences {
  messages?: Partial<ChannelPreferences>;
  reminders?: Partial<ChannelPreferences>;
  events?: Partial<ChannelPreferences>;
  quietHours?: Partial<QuietHours>;
  osPermission?: Partial<Record<PushPlatform, OsPermissionState>>;
  softAsk?: Partial<Record<PushPlatform, SoftAskRecord>>;
  updatedAt?: Date;
}

/** What the push service said about one message: its ticket, then (worker/notifications/push/receipts.ts) its receipt. */
export interface NotificationDeliveryLogDoc extends StoredDoc {
  userId: ObjectId;
  token: string;
  category: PushCategory;
  idempotencyKey?: string;
  sentAt: Date;
  ticketStatus: 'ok' | 'error';
  ticketId?: string;
  /** `pending` until the receipts job reads it (`missing`: Expo no longer had it); absent when the ticket itself was an error. */
  receiptStatus?: 'pending' | 'ok' | 'error' | 'missing';
  receiptCheckedAt?: Date;
  /** Expo's error code (`details.error`, e.g. DeviceNotRegistered) and message, of the ticket or the receipt. */
  error?: { code: string | null; message: string };
  /** Set on web push rows only (no receipts there: the push service's answer is final). */
  transport?: 'webpush';
  /** The web push service's HTTP status of this row's request (201 accepted), absent when it was never reached. */
  serviceStatus?: number;
  /** Web push: which request of the message this row logs (1 first); one row per request. */
  attempt?: number;
  /** Requests this message took (a 429, a 5xx or a 413 adds one). */
  attempts?: number;
}

// What notifications keep on the rider's account.
declare module '../accounts/documents' {
  interface UserDoc {
    /** Only what the user set (worker/notifications/preferences/); the defaults fill the rest on read. */
    notificationPreferences?: StoredNotificationPreferences;
  }
}
