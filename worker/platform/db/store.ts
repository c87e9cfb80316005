import type { Collection, Db } from 'mongodb';
import type { Collections } from './collections';

/** Typed collection accessors for one request, plus the raw Db for the rare cross-cutting job. */
export type Store = { readonly [K in keyof Collections]: Collection<Collections[K]> } & {
  readonly db: Db;
};

/**
 * Builds the accessors over a Db that is only opened when first used, so requests that
 * touch no data never open a connection. Where the Db comes from (a per-request client
 * today, a connection-holding Durable Object later) is the caller's business.
 *
 * The accessors are made on first use by name: the names come from the domains' declarations
 * (./collections.ts), which the types check, so the platform keeps no list of them.
 */
export function createStore(openDb: () => Db): Store {
  let db: Db | undefined;
  const getDb = () => (db ??= openDb());
  const opened = new Map<string, Collection>();
  return new Proxy({} as Store, {
    get(_target, name) {
      if (name === 'db') return getDb();
      // A promise check (`then`) or a symbol probe is no collection: answering one would make the store look awaitable.
      if (typeof name !== 'string' || name === 'then') return undefined;
      const collection = opened.get(name) ?? getDb().collection(name);
      opened.set(name, collection);
      return collection;
    },
  });
}
