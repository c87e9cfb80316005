import { holds } from '../platform/db/collections';
import type { DataExportDoc, SessionDoc, UserDoc } from './documents';

/** Accounts: the riders' accounts, their sessions and the copies of their data they asked for. Each collection's name and the type of its documents. */
export const ACCOUNTS_COLLECTIONS = {
  users: holds<UserDoc>(),
  sessions: holds<SessionDoc>(),
  data_exports: holds<DataExportDoc>(),
};

type AccountsCollections = typeof ACCOUNTS_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends AccountsCollections {}
}
