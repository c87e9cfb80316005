import {
  createdAtOf,
  readArray,
  readBoolean,
  readCount,
  readDate,
  readId,
  readOneOf,
  readRecord,
  readString,
  readStrings,
  updatedAtOf,
} from '../../platform/db/stored-values';
import type { RevokedSession, UserDoc } from '../documents';

// The one reader of a stored account (users): what years of older code left there, turned into what the service
// uses. Fields other domains keep on the account pass through as stored, for their own readers; the subscription
// is read here, because the account's own view shows it.

/** An account with no usable name shows as this: an empty name would read as a broken profile. */
export const UNNAMED_RIDER = 'Rider';

type BillingInterval = NonNullable<NonNullable<UserDoc['subscription']>['interval']>;
/**
 * Billing's intervals (worker/billing/subscriptions/plans.ts), which accounts may not import: a record keyed by
 * billing's own type, so the typecheck refuses a missing or an extra one.
 */
const INTERVAL_KEYS: Record<BillingInterval, true> = { month: true, year: true };
const INTERVALS = Object.keys(INTERVAL_KEYS) as BillingInterval[];

/** The fields of the account this reader reads; every other field (another domain's) passes through as stored. */
const OWN_FIELDS = new Set([
  '_id',
  'name',
  'nameWords',
  'email',
  'password',
  'emailVerified',
  'tokenVersion',
  'revokedSessions',
  'imageUri',
  'role',
  'appleUserId',
  'googleUserId',
  'isBot',
  'analyticsExcluded',
  'subscription',
  'suspension',
  'createdAt',
  'updatedAt',
]);

/** The stored account, read; undefined when its `_id` names no account (a document no one can own). */
export function readUser(stored: object): UserDoc | undefined {
  const doc = stored as Record<string, unknown>;
  const _id = readId(doc._id);
  if (!_id) return undefined;
  const others = Object.entries(doc).filter(([key]) => !OWN_FIELDS.has(key));
  // An optional field unreadable as stored is left out, as if never set.
  const optional = present({
    nameWords: doc.nameWords === undefined ? undefined : readStrings(doc.nameWords),
    password: readString(doc.password),
    emailVerified: readBoolean(doc.emailVerified),
    tokenVersion: readCount(doc.tokenVersion),
    imageUri: readString(doc.imageUri),
    appleUserId: readString(doc.appleUserId),
    googleUserId: readString(doc.googleUserId),
    isBot: readBoolean(doc.isBot),
    analyticsExcluded: readBoolean(doc.analyticsExcluded),
    subscription: readSubscription(doc.subscription),
    suspension: readSuspension(doc.suspension),
  });
  return {
    ...(Object.fromEntries(others) as Partial<UserDoc>),
    ...optional,
    _id,
    name: readName(doc.name),
    email: readString(doc.email) ?? '',
    role: doc.role === 'admin' ? 'admin' : null,
    revokedSessions: readRevokedSessions(doc.revokedSessions),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}

const readName = (value: unknown) => readString(value)?.trim() || UNNAMED_RIDER;

const present = <T extends Record<string, unknown>>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** Revoked sessions: each with a session id and a time; one without either ends nothing and is left out. */
function readRevokedSessions(value: unknown): RevokedSession[] {
  return readArray(value).flatMap((entry) => {
    const record = readRecord(entry);
    const sid = readString(record?.sid);
    const until = readDate(record?.until);
    return sid && until ? [{ sid, until }] : [];
  });
}

/** The subscription billing stored on the account: a plan and a status, else none (the free plan). */
function readSubscription(value: unknown): UserDoc['subscription'] {
  const record = readRecord(value);
  const plan = readString(record?.plan);
  const status = readString(record?.status);
  if (!record || !plan || !status) return undefined;
  const renewsAt = readDate(record.renewsAt);
  const interval = readOneOf(record.interval, INTERVALS);
  const eventId = readString(record.eventId);
  const eventCreatedAt = readDate(record.eventCreatedAt);
  return {
    plan,
    status,
    ...(renewsAt ? { renewsAt } : {}),
    ...(interval ? { interval } : {}),
    ...(eventId ? { eventId } : {}),
    ...(eventCreatedAt ? { eventCreatedAt } : {}),
  };
}

/**
 * A suspension as stored: any record counts, so an unreadable field never frees a rider; an end that cannot be
 * read as a date reads as none (until lifted), a missing reason as empty.
 */
export function readSuspension(value: unknown): UserDoc['suspension'] {
  const record = readRecord(value);
  if (!record) return undefined;
  const by = readId(record.by);
  const at = readDate(record.at);
  return {
    until: readDate(record.until) ?? null,
    reason: readString(record.reason) ?? '',
    ...(by ? { by } : {}),
    ...(at ? { at } : {}),
  };
}

/** Another rider's public fields, read from a stored account: what `publicUsers` answers. */
export function readPublicUser(stored: object): Pick<UserDoc, '_id' | 'name' | 'imageUri'> | undefined {
  const doc = stored as Record<string, unknown>;
  const _id = readId(doc._id);
  if (!_id) return undefined;
  const imageUri = readString(doc.imageUri);
  return { _id, name: readName(doc.name), ...(imageUri ? { imageUri } : {}) };
}
