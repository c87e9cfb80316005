import { holds } from '../platform/db/collections';
import type { SessionDoc, UserDoc } from './documents';

/** Accounts: the riders' accounts and their sessions. Each collection's name and the type of its documents. */
export const ACCOUNTS_COLLECTIONS = {
  users: holds<UserDoc>(),
  sessions: holds<SessionDoc>(),
};

type AccountsCollections = typeof ACCOUNTS_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends AccountsCollections {}
}
