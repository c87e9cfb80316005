import { holds } from '../platform/db/collections';
import type {
  BlogPostDoc,
  CategoryDoc,
  ScheduledNotificationDoc,
  SpotDoc,
  SpotListDoc,
  SpotReviewDoc,
  SpotTombstoneDoc,
  SpotTrickHistoryDoc,
  TrickDoc,
  TrickipediaDoc,
  TrickListDoc,
} from './documents';

/** Riding: trick lists and tricks, the encyclopedia, spots with what hangs off them, and reminders. Each collection's name and the type of its documents. */
export const RIDING_COLLECTIONS = {
  tricklists: holds<TrickListDoc>(),
  tricks: holds<TrickDoc>(),
  trickipedia: holds<TrickipediaDoc>(),
  spotlists: holds<SpotListDoc>(),
  spots: holds<SpotDoc>(),
  spot_reviews: holds<SpotReviewDoc>(),
  spot_trick_history: holds<SpotTrickHistoryDoc>(),
  spot_tombstones: holds<SpotTombstoneDoc>(),
  blog: holds<BlogPostDoc>(),
  categories: holds<CategoryDoc>(),
  scheduledNotifications: holds<ScheduledNotificationDoc>(),
};

type RidingCollections = typeof RIDING_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends RidingCollections {}
}
