import { holds } from '../platform/db/collections';
import type { ModerationTermDoc, ModeratorActionDoc } from './documents';

/** Moderation: the moderator action log and the word filter's terms. Each collection's name and the type of its documents. */
export const MODERATION_COLLECTIONS = {
  moderator_actions: holds<ModeratorActionDoc>(),
  moderation_terms: holds<ModerationTermDoc>(),
};

type ModerationCollections = typeof MODERATION_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends ModerationCollections {}
}
