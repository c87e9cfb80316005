import type { Store } from './store';

/** Where a store that can carry several operations in one call keeps that ability (on its Db: worker/platform/db/gateway-store.ts). */
export const IN_ORDER = Symbol('in order');

/** Each step issues one operation on the store it is given, before its first await. */
export type InOrderStep = (store: Store) => Promise<unknown>;

/** A Db that runs the steps' operations (issued on `store`) in order in one call; after a failed one none runs. */
export type InOrderRunner = (steps: InOrderStep[], store: Store) => Promise<unknown[]>;

/**
 * Runs the operations one after another, as awaiting each in turn would: over the gateway in one call (one hop
 * instead of one per operation), elsewhere (a direct client) each in turn. Rejects with the first failure; the
 * steps after it are not run.
 */
export async function writeInOrder(store: Store, steps: InOrderStep[]): Promise<unknown[]> {
  const runner = (store.db as unknown as { [IN_ORDER]?: InOrderRunner })[IN_ORDER];
  if (runner) return runner(steps, store);
  const results: unknown[] = [];
  for (const step of steps) results.push(await step(store));
  return results;
}
