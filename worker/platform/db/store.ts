import type { Collection, Db } from 'mongodb';
import { COLLECTION_NAMES, type CollectionDocuments } from './collections';

/** Typed collection accessors for one request, plus the raw Db for the rare cross-cutting job. */
export type Store = { readonly [K in keyof CollectionDocuments]: Collection<CollectionDocuments[K]> } & {
  readonly db: Db;
};

/**
 * Builds the accessors over a Db that is only opened when first used, so requests that
 * touch no data never open a connection. Where the Db comes from (a per-request client
 * today, a connection-holding Durable Object later) is the caller's business.
 */
export function createStore(openDb: () => Db): Store {
  let db: Db | undefined;
  const getDb = () => (db ??= openDb());
  const store = {} as Record<string, unknown>;
  Object.defineProperty(store, 'db', { get: getDb, enumerable: true });
  for (const name of COLLECTION_NAMES) {
    let collection: Collection | undefined;
    Object.defineProperty(store, name, {
      get: () => (collection ??= getDb().collection(name)),
      enumerable: true,
    });
  }
  return store as Store;
}
