import type { Cleanup } from '../platform/db/personal-data';

/**
 * What deleting an account does to the riding collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const RIDING_PERSONAL_DATA: Cleanup[] = [
  { collection: 'tricklists', remove: (userId) => ({ userId }) },
  { collection: 'tricks', remove: (userId) => ({ userId }) },
  { collection: 'spotlists', remove: (userId) => ({ userId }) },
  { collection: 'spot_reviews', remove: (userId) => ({ userId }) },
  { collection: 'spot_trick_history', remove: (userId) => ({ userId }) },
  { collection: 'scheduledNotifications', remove: (userId) => ({ userId }) },
  // Spots are shared content: they stay, without their creator.
  {
    collection: 'spots',
    detach: (userId) => ({ filter: { createdBy: userId }, update: { $unset: { createdBy: '' } } }),
  },
  // Stays inside spots (worker/riding/stays/) are shared content too: each stay the user created loses its creator.
  {
    collection: 'spots',
    detach: (userId) => ({
      filter: { 'stays.createdBy': userId },
      update: { $unset: { 'stays.$[mine].createdBy': '' } },
      arrayFilters: [{ 'mine.createdBy': userId }],
    }),
  },
  // Blog posts are the service's content: they stay, without their author.
  {
    collection: 'blog',
    detach: (userId) => ({ filter: { authorId: userId }, update: { $unset: { authorId: '' } } }),
  },
];
