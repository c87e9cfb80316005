import { LIMITS } from '../../platform/limits';
import type { PushCategory } from '../documents';
import type { Notification } from './notification';
import { fitText } from './text';

// The pure rules of a web push: what the service worker receives, the spec's headers, and what each answer
// of the push service means. worker/notifications/push/web-push.ts does the I/O.

/** What the website's service worker reads from `event.data.json()` (docs/web-push.md). */
export interface WebPushPayload {
  title: string;
  body: string;
  /** The recipient's unread count, for `navigator.setAppBadge` (messages only). */
  badge?: number;
  data: { url: string; category: PushCategory; threadId: string } & Record<string, string | number | boolean>;
}

/**
 * RFC 8188 framing of a single-record aes128gcm body: 21 bytes of salt, record size and key id length,
 * the 65-byte sender key as key id, then the record's padding delimiter and 16-byte GCM tag.
 */
const FRAMING_BYTES = 21 + 65 + 1 + 16;

/** The longest plaintext whose encrypted body still fits the 4,096 bytes every push service accepts. */
export const MAX_PLAINTEXT_BYTES = LIMITS.webPush.maxBodyBytes - FRAMING_BYTES;

export function webPushPayload(notification: Notification): WebPushPayload {
  const { title, body, threadId, badge, data } = notification;
  return { title, body, ...(badge !== undefined ? { badge } : {}), data: { ...data, threadId } };
}

const bodyLength = (text: string) => Array.from(text).length;

/** The same notification with its body preview halved: strictly shorter (empty once one character is left). */
export function halveBody(notification: Notification): Notification {
  const length = bodyLength(notification.body);
  const half = Math.floor(length / 2);
  const body = half >= 2 ? fitText(notification.body, half) : '';
  return { ...notification, body: bodyLength(body) < length ? body : '' };
}

/**
 * The payload's bytes within `maxBytes`: the body preview is halved until it fits, so a send never fails for
 * size (title and data are bounded well below the limit: 30 characters and ids).
 */
export function encodeWebPayload(notification: Notification, maxBytes = MAX_PLAINTEXT_BYTES): Uint8Array {
  let current = notification;
  for (;;) {
    const bytes = new TextEncoder().encode(JSON.stringify(webPushPayload(current)));
    if (bytes.length <= maxBytes || !current.body) return bytes;
    current = halveBody(current);
  }
}

export interface WebPushHeaders {
  ttl: number;
  urgency: 'high' | 'normal';
  /** RFC 8030 §5.4: a newer push with the same topic replaces an undelivered older one. */
  topic?: string;
}

/** The interface spec's TTL, Urgency and Topic per category: a message replaces its conversation's older one. */
export function webPushHeaders(category: PushCategory, notification: Notification): WebPushHeaders {
  if (category !== 'messages') return { ttl: LIMITS.webPush.remindersTtlSeconds, urgency: 'normal' };
  const conversationId = notification.data.conversationId;
  return {
    ttl: LIMITS.webPush.messagesTtlSeconds,
    urgency: 'high',
    // A topic is at most 32 URL-safe base64 characters (RFC 8030 §5.4): `msg-` and a 24-hex id is 28.
    ...(typeof conversationId === 'string' && /^[A-Za-z0-9_-]{1,28}$/.test(conversationId)
      ? { topic: `msg-${conversationId}` }
      : {}),
  };
}

export type WebAnswer = 'accepted' | 'gone' | 'too-large' | 'retry' | 'redirected' | 'refused';

/**
 * What a push service's status means: 2xx accepted; 3xx a redirect, never followed (push services answer
 * directly); 404 and 410 the subscription is gone (services differ); 413 the payload is too large; 429 and
 * 5xx try again later; anything else (400, 403: a wrong VAPID key or subject) is a refusal no retry mends.
 */
export function classifyWebAnswer(status: number): WebAnswer {
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 300 && status < 400) return 'redirected';
  if (status === 404 || status === 410) return 'gone';
  if (status === 413) return 'too-large';
  if (status === 429 || status >= 500) return 'retry';
  return 'refused';
}

/**
 * How long to wait before trying again: Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), else
 * exponential backoff with jitter. null when the service asks for longer than a run may wait: retrying
 * sooner than it asked would only be refused again.
 */
export function retryDelayMs(retryAfter: string | null, attempt: number, now = Date.now()): number | null {
  const base = LIMITS.push.retryBaseMs * 2 ** attempt;
  let wait = Math.min(base + Math.random() * base, LIMITS.push.retryAfterMaxMs);
  if (retryAfter?.trim()) {
    const seconds = Number(retryAfter);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) wait = seconds * 1000;
    else if (Number.isFinite(date)) wait = Math.max(0, date - now);
  }
  return wait > LIMITS.push.retryAfterMaxMs ? null : wait;
}

const CONFIGURATION_HINT =
  'a 400 to 403 means a configuration mistake: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be the pair the browser subscribed with, VAPID_SUBJECT a mailto: or https: contact';

/**
 * Our own words for a push service's answer, by status alone: its body is never read, so nothing the server
 * at the endpoint writes reaches the delivery log or the admin test push.
 */
export function webAnswerReason(status: number): string {
  const answer = classifyWebAnswer(status);
  if (answer === 'accepted') return 'accepted';
  if (answer === 'redirected') return 'a redirect, not followed (push services answer directly)';
  if (answer === 'gone') return 'the subscription is gone (expired or unsubscribed)';
  if (answer === 'too-large') return 'the payload is too large';
  if (answer === 'retry') return status === 429 ? 'too many requests' : 'the push service is unavailable';
  return status >= 400 && status < 404 ? `refused (${CONFIGURATION_HINT})` : 'refused';
}

/** A runtime error's text made safe to store and show: control characters gone, at most `max` characters. */
export function boundedReason(text: string, max = LIMITS.webPush.reasonMax): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const characters = Array.from(text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim());
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : characters.join('');
}
