import type { Store } from '../../worker/platform/db/store';

/**
 * The store with each collection operation it runs recorded as `collection.method` (a find or aggregate when it
 * is called: its toArray is the one round trip), passed on unchanged to the real store: how a test holds a path
 * to the round trips it may make.
 */
export function countingStore(store: Store): { store: Store; operations: string[] } {
  const operations: string[] = [];
  const counted = new Proxy(store, {
    get(target, name) {
      const collection = Reflect.get(target, name);
      if (typeof name !== 'string' || name === 'db' || !collection) return collection;
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
