import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import { readString } from '../platform/db/stored-values';
import type { ACCOUNTS_COLLECTIONS } from './collections';
import { nameWords } from './users/name-words';

/** What accounts store, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const ACCOUNTS_STORED_SHAPES: StoredShapes<typeof ACCOUNTS_COLLECTIONS> = {
  users: {
    ...STAMPED,
    name: 'text',
    email: 'email',
    // Rider search compares these words (worker/social/profiles/service.ts); set on every write of `name`.
    nameWords: {
      what: 'the words of name (worker/accounts/users/name-words.ts)',
      from: ['name'],
      derived: (user) => {
        const name = readString(user.name);
        return name === undefined ? undefined : nameWords(name);
      },
    },
    emailVerified: 'boolean',
    tokenVersion: 'number',
    'revokedSessions.$.until': 'date',
    role: 'text',
    imageUri: 'text',
    // An admin's suspension (worker/accounts/suspension/); `until` may be null (until lifted).
    'suspension.reason': 'text',
    'suspension.by': 'id',
    'suspension.until': 'date',
    'suspension.at': 'date',
    // Kept on the account by other domains.
    spotListCount: 'number',
    followerCount: 'number',
    followingCount: 'number',
    eventSubscriptionCount: 'number',
    'subscription.renewsAt': 'date',
    'subscription.eventCreatedAt': 'date',
    'notificationPreferences.updatedAt': 'date',
  },
  sessions: {
    ...STAMPED,
    userId: 'id',
    lastUsedAt: 'date',
    expiresAt: 'date',
    revokedAt: 'date',
    rotatedAt: 'date',
  },
  data_exports: {
    ...STAMPED,
    riderId: 'id',
    day: 'text',
    state: 'text',
    requestedBy: 'id',
    dueAt: 'date',
    attempts: 'number',
    leaseId: 'text',
    key: 'text',
    bytes: 'number',
    readyAt: 'date',
    expiresAt: 'date',
    failure: 'text',
  },
};
