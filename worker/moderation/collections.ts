import { holds } from '../platform/db/collections';
import type { ModeratorActionDoc } from './documents';

/** Moderation: the moderator action log. Each collection's name and the type of its documents. */
export const MODERATION_COLLECTIONS = {
  moderator_actions: holds<ModeratorActionDoc>(),
};

type ModerationCollections = typeof MODERATION_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends ModerationCollections {}
}
