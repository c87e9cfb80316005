import { holds } from '../platform/db/collections';
import type { ChatMessageDoc, CompanionProfileDoc } from './documents';

/** The companion: its chat turns and what it remembers of each rider. Each collection's name and the type of its documents. */
export const COMPANION_COLLECTIONS = {
  bot_chats: holds<ChatMessageDoc>(),
  companion_profiles: holds<CompanionProfileDoc>(),
};

type CompanionCollections = typeof COMPANION_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends CompanionCollections {}
}
