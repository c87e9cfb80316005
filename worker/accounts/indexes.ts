import type { IndexDeclaration } from '../platform/db/indexes';

/** The indexes accounts relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const ACCOUNTS_INDEXES: IndexDeclaration[] = [
  {
    collection: 'users',
    key: { email: 1 },
    options: { name: 'email_unique', unique: true },
    why: 'sign-in lookup; one account per email',
  },
  {
    collection: 'users',
    key: { appleUserId: 1 },
    options: { name: 'appleUserId_unique', unique: true, sparse: true },
    why: 'returning Apple sign-ins carry only the subject',
  },
  { collection: 'users', key: { name: 1 }, options: { name: 'name' }, why: 'admin user search' },
  {
    collection: 'users',
    key: { nameWords: 1, _id: -1 },
    options: { name: 'nameWords__id' },
    why: 'rider search: a prefix of each word typed, newest account first',
  },
  { collection: 'users', key: { createdAt: 1 }, options: { name: 'createdAt' }, why: 'dashboard signup cohorts' },
  {
    collection: 'sessions',
    key: { familyId: 1 },
    options: { name: 'familyId_unique', unique: true },
    why: 'a refresh token names its session by family id',
  },
  {
    collection: 'sessions',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId_id' },
    why: "a rider's sessions newest first; sign-out everywhere; account deletion",
  },
  {
    collection: 'sessions',
    key: { expiresAt: 1 },
    options: { name: 'expiresAt_ttl', expireAfterSeconds: 0 },
    why: 'a session unused for REFRESH_TOKEN_TTL_DAYS is removed',
  },
  {
    collection: 'data_exports',
    key: { riderId: 1, day: 1 },
    options: { name: 'riderId_day_unique', unique: true },
    why: "one export a rider a UTC day, even when two requests race; the rider's list, newest day first",
  },
  {
    collection: 'data_exports',
    key: { state: 1, dueAt: 1 },
    options: { name: 'state_dueAt' },
    why: 'the background run: queued exports due for a build, builds whose lease ran out, ready files past their expiry',
  },
];
