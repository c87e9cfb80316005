import { readBoolean, readDate, readOneOf, readRecord, readString } from '../../platform/db/stored-values';
import {
  type ChannelPreferences,
  OS_PERMISSION_STATES,
  PUSH_PLATFORMS,
  type SoftAskRecord,
  type StoredNotificationPreferences,
} from '../documents';
import { isKnownTimeZone } from './quiet-hours';

const CHANNELS = ['push', 'inApp', 'email'] as const;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Keeps the fields that read; a group with none reads as not set. */
function some<T extends object>(fields: T): Partial<T> | undefined {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
  return Object.keys(kept).length ? kept : undefined;
}

function readChannels(value: unknown): Partial<ChannelPreferences> | undefined {
  const record = readRecord(value);
  return some(Object.fromEntries(CHANNELS.map((channel) => [channel, readBoolean(record?.[channel])])));
}

function readSoftAsk(value: unknown): SoftAskRecord | undefined {
  const record = readRecord(value);
  return some({
    shownAt: readDate(record?.shownAt),
    declinedAt: readDate(record?.declinedAt),
    acceptedAt: readDate(record?.acceptedAt),
  });
}

/**
 * The preferences a rider set, as stored on the account, read: a switch stored as `"true"` or 1 reads as on, a
 * quiet-hours time not in HH:mm or an unknown time zone reads as not set (the default applies), anything else
 * unusable is left out. Undefined when nothing reads.
 */
export function readStoredPreferences(value: unknown): StoredNotificationPreferences | undefined {
  const record = readRecord(value);
  if (!record) return undefined;
  const quiet = readRecord(record.quietHours);
  const start = readString(quiet?.start);
  const end = readString(quiet?.end);
  const timezone = readString(quiet?.timezone);
  const softAsk = readRecord(record.softAsk);
  const osPermission = readRecord(record.osPermission);
  return some({
    messages: readChannels(record.messages),
    reminders: readChannels(record.reminders),
    events: readChannels(record.events),
    quietHours: some({
      start: start && HH_MM.test(start) ? start : undefined,
      end: end && HH_MM.test(end) ? end : undefined,
      timezone: timezone && isKnownTimeZone(timezone) ? timezone : undefined,
    }),
    osPermission: some(
      Object.fromEntries(
        PUSH_PLATFORMS.map((platform) => [platform, readOneOf(osPermission?.[platform], OS_PERMISSION_STATES)]),
      ),
    ),
    softAsk: some(Object.fromEntries(PUSH_PLATFORMS.map((platform) => [platform, readSoftAsk(softAsk?.[platform])]))),
    updatedAt: readDate(record.updatedAt),
  });
}
