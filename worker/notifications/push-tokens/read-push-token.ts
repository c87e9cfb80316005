import {
  createdAtOf,
  readDate,
  readId,
  readOneOf,
  readRecord,
  readString,
  updatedAtOf,
} from '../../platform/db/stored-values';
import {
  DEAD_REASONS,
  PUSH_PLATFORMS,
  PUSH_TRANSPORTS,
  type PushPlatform,
  type PushTokenDoc,
  type PushTransport,
} from '../documents';
import { isExpoPushToken } from './format';

/**
 * The transport of a token stored before `transport` existed (or with one no longer known), from the address
 * itself: an Expo token goes through Expo's gateway, a subscription with an endpoint and keys to a browser's push
 * service; any other address was a native device token, which is not sent to (migrations-notes/legacy-documents-accounts.md).
 */
function transportOf(doc: Record<string, unknown>, token: string, hasWebKeys: boolean): PushTransport {
  const stored = readOneOf(doc.transport, PUSH_TRANSPORTS);
  if (stored) return stored;
  if (isExpoPushToken(token)) return 'gateway';
  if (hasWebKeys && readString(doc.endpoint)) return 'webpush';
  return doc.platform === 'ios' ? 'ios_native' : 'android_native';
}

/** The platform of a token stored without a known one: web for a browser subscription, else by its transport. */
function platformOf(doc: Record<string, unknown>, transport: PushTransport): PushPlatform {
  return (
    readOneOf(doc.platform, PUSH_PLATFORMS) ??
    (transport === 'webpush' ? 'web' : transport === 'ios_native' ? 'ios' : 'android')
  );
}

/**
 * A stored push token, read: what older code left (no `transport`, `deadAt` as `""`, a hex-string `userId`, dates
 * as text) turned into what the sender and the views use. Undefined when it names no owner or no address.
 * A `deadAt` that reads as no date means alive: the token was never reported gone.
 */
export function readPushToken(stored: object): PushTokenDoc | undefined {
  const doc = stored as Record<string, unknown>;
  const _id = readId(doc._id);
  const userId = readId(doc.userId);
  const token = readString(doc.token);
  if (!_id || !userId || !token) return undefined;
  const keys = readRecord(doc.keys);
  const p256dh = readString(keys?.p256dh);
  const auth = readString(keys?.auth);
  const transport = transportOf(doc, token, Boolean(p256dh && auth));
  const deadAt = readDate(doc.deadAt) ?? null;
  const optional = {
    endpoint: readString(doc.endpoint),
    appVersion: readString(doc.appVersion),
    deviceModel: readString(doc.deviceModel),
    locale: readString(doc.locale),
    timezone: readString(doc.timezone),
  };
  return {
    _id,
    userId,
    token,
    platform: platformOf(doc, transport),
    transport,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    ...(p256dh && auth ? { keys: { p256dh, auth } } : {}),
    lastSeenAt: readDate(doc.lastSeenAt) ?? updatedAtOf(doc),
    deadAt,
    deadReason: deadAt ? (readOneOf(doc.deadReason, DEAD_REASONS) ?? null) : null,
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}

/** Stored values of `deadAt` that mean the token was never reported gone: none, null, or the empty text older code wrote. */
export const ALIVE: readonly (null | '')[] = [null, ''];
