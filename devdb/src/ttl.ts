import { valuesAtPath } from './paths.js';
import type { Store } from './store.js';

/**
 * Deletes documents whose TTL-indexed field is older than `expireAfterSeconds`.
 * Arrays count by their earliest date; documents without a date never expire.
 */
export function sweepExpired(store: Store, now = Date.now()): number {
  let removed = 0;
  for (const db of store.dbs.values()) {
    for (const coll of db.collections.values()) {
      for (const index of coll.indexes.values()) {
        const seconds = index.spec.expireAfterSeconds;
        if (typeof seconds !== 'number' || index.fields.length !== 1) continue;
        const cutoff = now - seconds * 1000;
        const field = index.fields[0]!;
        for (const doc of [...coll.docs.values()]) {
          let earliest = Infinity;
          for (const v of valuesAtPath(doc, field)) {
            if (v instanceof Date && v.getTime() < earliest) earliest = v.getTime();
          }
          if (earliest <= cutoff) {
            coll.remove(doc);
            removed++;
          }
        }
      }
    }
  }
  store.flush();
  return removed;
}
