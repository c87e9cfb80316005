import { holds } from '../db/collections';
import type { LegacyTokenUsageDoc } from './documents';

/** The tokens' own collection: how often each legacy token is still used. */
export const TOKEN_COLLECTIONS = {
  legacy_token_usage: holds<LegacyTokenUsageDoc>(),
};

type TokenCollections = typeof TOKEN_COLLECTIONS;

declare module '../db/collections' {
  interface Collections extends TokenCollections {}
}
