import { BoundedCache } from '../../platform/bounded-cache';
import type { Store } from '../../platform/db/store';
import { readEach } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import { buildWordFilter, type WordFilter } from './matching';
import { readTerm } from './reader';
import { listTerms } from './service';

// Built filters by database name, kept at module scope so each request of an isolate reuses them: building one
// compiles every pattern, and the term list changes rarely.
const filters = new BoundedCache<Promise<WordFilter>>(
  LIMITS.wordFilter.termListCacheEntries,
  LIMITS.wordFilter.termListCacheMs,
  () => Date.now(),
);

/** The word filter with the current term list: read at most once per `termListCacheMs` per database and isolate. */
export function wordFilterOf(store: Store): Promise<WordFilter> {
  const key = store.db.databaseName;
  const cached = filters.get(key);
  if (cached) return cached;
  const built = listTerms(store).then((rows) => buildWordFilter(readEach('moderation_terms', rows, readTerm)));
  filters.set(key, built);
  // A failed read is not remembered: the next text reads again.
  built.catch(() => filters.forgetWhere((stored) => stored === key));
  return built;
}

/** Forgets this database's filter: an admin's edit is in force at once in the isolate that made it. */
export function forgetWordFilter(store: Store): void {
  const key = store.db.databaseName;
  filters.forgetWhere((stored) => stored === key);
}
