import type { ObjectId } from 'mongodb';
import type { Cleanup } from '../platform/db/personal-data';
import { idForms } from '../platform/db/stored-values';

/** The rider's id in either form older code stored it in. */
const rider = (userId: ObjectId) => ({ $in: idForms(userId) });

/**
 * What deleting an account does to the riding collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const RIDING_PERSONAL_DATA: Cleanup[] = [
  { collection: 'tricklists', remove: (userId) => ({ userId: rider(userId) }) },
  { collection: 'tricks', remove: (userId) => ({ userId: rider(userId) }) },
  { collection: 'spotlists', remove: (userId) => ({ userId: rider(userId) }) },
  { collection: 'spot_reviews', remove: (userId) => ({ userId: rider(userId) }) },
  { collection: 'spot_trick_history', remove: (userId) => ({ userId: rider(userId) }) },
  { collection: 'scheduledNotifications', remove: (userId) => ({ userId }) },
  // Spots are shared content: they stay, without their creator.
  {
    collection: 'spots',
    detach: (userId) => ({ filter: { createdBy: rider(userId) }, update: { $unset: { createdBy: '' } } }),
  },
  // Stays inside spots (worker/riding/stays/) are shared content too: each stay the user created loses its creator.
  {
    collection: 'spots',
    detach: (userId) => ({
      filter: { 'stays.createdBy': rider(userId) },
      update: { $unset: { 'stays.$[mine].createdBy': '' } },
      arrayFilters: [{ 'mine.createdBy': rider(userId) }],
    }),
  },
  // Blog posts are the service's content: they stay, without their author.
  {
    collection: 'blog',
    detach: (userId) => ({ filter: { authorId: rider(userId) }, update: { $unset: { authorId: '' } } }),
  },
];
