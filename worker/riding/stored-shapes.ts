import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { RIDING_COLLECTIONS } from './collections';

/** What riding stores, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const RIDING_STORED_SHAPES: StoredShapes<typeof RIDING_COLLECTIONS> = {
  tricklists: { ...STAMPED, userId: 'id', name: 'text', lastOpenedAt: 'date', remindersPausedAt: 'date' },
  tricks: {
    ...STAMPED,
    userId: 'id',
    listId: 'id',
    trickipediaId: 'id',
    name: 'text',
    attempts: 'number',
    landedAt: 'date',
  },
  trickipedia: { ...STAMPED, name: 'text', difficulty: 'number', aliases: 'texts' },
  spotlists: { ...STAMPED, userId: 'id', name: 'text', spotIds: 'ids' },
  spots: {
    ...STAMPED,
    name: 'text',
    sports: 'texts',
    createdBy: 'id',
    // Stays keep their own id as its hex string (the interface spec types it as a string).
    'stays.$._id': 'hexId',
    'stays.$.createdAt': 'date',
    'stays.$.updatedAt': 'date',
    'stays.$.createdBy': 'id',
    'stays.$.priceLevel': 'number',
    'stays.$.nightlyPriceMin': 'number',
    'stays.$.nightlyPriceMax': 'number',
    'stays.$.rating': 'number',
    'stays.$.reviewCount': 'number',
    'stays.$.distanceKm': 'number',
  },
  spot_reviews: { ...STAMPED, spotId: 'id', userId: 'id', rating: 'number' },
  spot_trick_history: { ...STAMPED, spotId: 'id', userId: 'id', trickipediaId: 'id', landedAt: 'date' },
  spot_tombstones: { ...STAMPED, deletedAt: 'date' },
  blog: { ...STAMPED, title: 'text', slug: 'text', tags: 'texts', publishedAt: 'date', authorId: 'id' },
  categories: { ...STAMPED, name: 'text', slug: 'text', entryCount: 'number' },
  scheduledNotifications: {
    ...STAMPED,
    userId: 'id',
    listId: 'id',
    trickId: 'id',
    scheduledFor: 'date',
    attemptCount: 'number',
    lastAttemptAt: 'date',
    leaseUntil: 'date',
    sentAt: 'date',
    sentTrickId: 'id',
  },
};
