import type { Db } from 'mongodb';
import { ACCOUNTS_COLLECTIONS } from './accounts/collections';
import { ACCOUNTS_INDEXES } from './accounts/indexes';
import { ACCOUNTS_PERSONAL_DATA } from './accounts/personal-data';
import { ACCOUNTS_STORED_SHAPES } from './accounts/stored-shapes';
import { BILLING_COLLECTIONS } from './billing/collections';
import { BILLING_INDEXES } from './billing/indexes';
import { BILLING_PERSONAL_DATA } from './billing/personal-data';
import { BILLING_STORED_SHAPES } from './billing/stored-shapes';
import { COMPANION_COLLECTIONS } from './companion/collections';
import { COMPANION_INDEXES } from './companion/indexes';
import { COMPANION_PERSONAL_DATA } from './companion/personal-data';
import { COMPANION_STORED_SHAPES } from './companion/stored-shapes';
import { EVENTS_COLLECTIONS } from './events/collections';
import { EVENTS_INDEXES } from './events/indexes';
import { EVENTS_PERSONAL_DATA } from './events/personal-data';
import { EVENTS_STORED_SHAPES } from './events/stored-shapes';
import { GROWTH_COLLECTIONS } from './growth/collections';
import { GROWTH_INDEXES } from './growth/indexes';
import { GROWTH_PERSONAL_DATA } from './growth/personal-data';
import { GROWTH_STORED_SHAPES } from './growth/stored-shapes';
import { MODERATION_COLLECTIONS } from './moderation/collections';
import { MODERATION_INDEXES } from './moderation/indexes';
import { MODERATION_PERSONAL_DATA } from './moderation/personal-data';
import { MODERATION_STORED_SHAPES } from './moderation/stored-shapes';
import { NOTIFICATIONS_COLLECTIONS } from './notifications/collections';
import { NOTIFICATIONS_INDEXES } from './notifications/indexes';
import { NOTIFICATIONS_PERSONAL_DATA } from './notifications/personal-data';
import { NOTIFICATIONS_STORED_SHAPES } from './notifications/stored-shapes';
import type { CollectionName } from './platform/db/collections';
import { createDeclaredIndexes, type IndexDeclaration } from './platform/db/indexes';
import type { Cleanup } from './platform/db/personal-data';
import type { StoredShape } from './platform/db/stored-shapes';
import { TOKEN_COLLECTIONS } from './platform/tokens/collections';
import { TOKEN_STORED_SHAPES } from './platform/tokens/stored-shapes';
import { RIDING_COLLECTIONS } from './riding/collections';
import { RIDING_INDEXES } from './riding/indexes';
import { RIDING_PERSONAL_DATA } from './riding/personal-data';
import { RIDING_STORED_SHAPES } from './riding/stored-shapes';
import { SOCIAL_COLLECTIONS } from './social/collections';
import { SOCIAL_INDEXES } from './social/indexes';
import { SOCIAL_PERSONAL_DATA } from './social/personal-data';
import { SOCIAL_STORED_SHAPES } from './social/stored-shapes';

// The service's data, composed from what each domain declares of its own: the collections, the
// indexes and the personal-data rules. The store, index setup, migrations-notes/indexes.md and
// account deletion read these lists; the domains never see each other's.

/** Every collection the service stores. */
export const COLLECTION_NAMES = Object.keys({
  ...TOKEN_COLLECTIONS,
  ...ACCOUNTS_COLLECTIONS,
  ...RIDING_COLLECTIONS,
  ...SOCIAL_COLLECTIONS,
  ...EVENTS_COLLECTIONS,
  ...COMPANION_COLLECTIONS,
  ...BILLING_COLLECTIONS,
  ...NOTIFICATIONS_COLLECTIONS,
  ...GROWTH_COLLECTIONS,
  ...MODERATION_COLLECTIONS,
}) as CollectionName[];

/**
 * Every index the service relies on. `applyIndexes` creates them idempotently; `npm run db:indexes`
 * runs it against any MONGODB_URI, and the dev stack at start. migrations-notes/indexes.md lists
 * them in this order (a test compares the two).
 */
export const INDEXES: readonly IndexDeclaration[] = [
  ...ACCOUNTS_INDEXES,
  ...RIDING_INDEXES,
  ...SOCIAL_INDEXES,
  ...EVENTS_INDEXES,
  ...COMPANION_INDEXES,
  ...BILLING_INDEXES,
  ...NOTIFICATIONS_INDEXES,
  ...GROWTH_INDEXES,
  ...MODERATION_INDEXES,
];

/** Creates every declared index; creating an existing identical index is a no-op. */
export const applyIndexes = (db: Db): Promise<number> => createDeclaredIndexes(db, INDEXES);

/**
 * What deleting an account does, domain by domain. The companion goes before social: its turns in
 * the direct messages are removed by their sender before the rider's other messages lose theirs.
 */
export const PERSONAL_DATA: readonly Cleanup[] = [
  ...RIDING_PERSONAL_DATA,
  ...COMPANION_PERSONAL_DATA,
  ...SOCIAL_PERSONAL_DATA,
  ...NOTIFICATIONS_PERSONAL_DATA,
  ...GROWTH_PERSONAL_DATA,
  ...EVENTS_PERSONAL_DATA,
  ...BILLING_PERSONAL_DATA,
  ...MODERATION_PERSONAL_DATA,
  ...ACCOUNTS_PERSONAL_DATA,
];

/**
 * What every collection stores, field by field: each domain's table (its `stored-shapes.ts`), the one
 * `npm run db:doctor` checks a database against (scripts/db-doctor.ts, migrations-notes/data-doctor.md).
 */
export const STORED_SHAPES: Readonly<Record<CollectionName, StoredShape>> = {
  ...TOKEN_STORED_SHAPES,
  ...ACCOUNTS_STORED_SHAPES,
  ...RIDING_STORED_SHAPES,
  ...SOCIAL_STORED_SHAPES,
  ...EVENTS_STORED_SHAPES,
  ...COMPANION_STORED_SHAPES,
  ...BILLING_STORED_SHAPES,
  ...NOTIFICATIONS_STORED_SHAPES,
  ...GROWTH_STORED_SHAPES,
  ...MODERATION_STORED_SHAPES,
};
