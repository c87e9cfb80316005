import { RUN_QUERIES } from '../../worker/platform/db/gateway-queries';
import type { Store } from '../../worker/platform/db/store';

/**
 * The store with each collection operation it runs recorded as `collection.method` (a find or aggregate when it
 * is called: its toArray is the one round trip), passed on unchanged to the real store: how a test holds a path
 * to the round trips it may make. Gateway queries (worker/platform/db/gateway-queries.ts) run here over it, as in
 * direct mode, so their operations are counted too.
 */
export function countingStore(store: Store): { store: Store; operations: string[] } {
  const operations: string[] = [];
  const db = new Proxy(store.db, {
    get: (target, name) => (name === RUN_QUERIES ? undefined : Reflect.get(target, name)),
  });
  const counted = new Proxy(store, {
    get(target, name) {
      if (name === 'db') return db;
      const collection = Reflect.get(target, name);
      if (typeof name !== 'string' || !collection) return collection;
      return new Proxy(collection, {
        get(inner, method) {
          const value = Reflect.get(inner, method);
          if (typeof value !== 'function' || typeof method !== 'string') return value;
          return (...args: unknown[]) => {
            operations.push(`${name}.${method}`);
            return value.apply(inner, args);
          };
        },
      });
    },
  });
  return { store: counted, operations };
}
