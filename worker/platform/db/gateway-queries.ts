import type { Db } from 'mongodb';
import { type Carried, encodeResult, uncarry } from '../../../durable-objects/db-gateway-codec';
import type { HeldQuery } from '../../../durable-objects/db-gateway-queries';
import { createStore, type Store } from './store';

/**
 * One database job a route names, run where the connection is: on the gateway object (durable-objects/db-gateway.ts,
 * `queries`) in one RPC with the others sent beside it, or here over the request's Store in direct mode. Its
 * arguments and its answer cross RPC as they are (strings, numbers, dates, plain objects: no ObjectId, no codec),
 * so it answers only the fields its caller needs, and `read` turns them into what the caller works with. Every job
 * is listed where the Worker is composed (`QUERIES`, worker/index.ts), which hands the list to the gateway object.
 */
export interface GatewayQuery<A, W, R> {
  name: string;
  /** A read may run again on another object when the first did not answer; a write only if refused unrun. */
  repeatable: boolean;
  run(store: Store, args: A): Promise<W>;
  read(wire: W): R;
  /** The job with these arguments, ready to send. */
  with(args: A): QueryCall<R>;
}

/** A job with its arguments, ready to send; R is what its caller gets. */
export interface QueryCall<R> {
  name: string;
  args: unknown;
  repeatable: boolean;
  run(store: Store): Promise<unknown>;
  read(wire: unknown): R;
}

export function gatewayQuery<A, W, R>(
  name: string,
  repeatable: boolean,
  run: (store: Store, args: A) => Promise<W>,
  read: (wire: W) => R,
): GatewayQuery<A, W, R> {
  return {
    name,
    repeatable,
    run,
    read,
    with: (args) => ({ name, args, repeatable, run: (store) => run(store, args), read: read as (wire: unknown) => R }),
  };
}

/** Stored documents as a job's answer (ObjectIds, dates and all), for a caller that reads them as stored. */
export type CarriedDocuments = Carried;

/** Documents as they came from the driver, made into a job's answer where the job runs. */
export const carryDocuments = (documents: unknown): CarriedDocuments => encodeResult(documents);

/** A job's carried documents back as the driver handed them over, for the caller's reader. */
export const documentsOf = <T>(carried: CarriedDocuments): T => uncarry<T>(carried);

/** Where a store that sends jobs to the gateway keeps that ability (on its Db: worker/platform/db/gateway-store.ts). */
export const RUN_QUERIES = Symbol('run queries');

/** Sends the jobs in one call and answers each one's wire answer, in order; rejects with the first failure. */
export type QueriesRunner = (calls: QueryCall<unknown>[]) => Promise<unknown[]>;

type Answers<T extends QueryCall<unknown>[]> = { [K in keyof T]: T[K] extends QueryCall<infer R> ? R : never };

/**
 * Runs the jobs side by side and answers each one's result: over the gateway in one call (one hop for an access
 * check's account and the route's first read), elsewhere (a direct client) each here, at once.
 */
export async function runQueries<T extends QueryCall<unknown>[]>(store: Store, calls: [...T]): Promise<Answers<T>> {
  const runner = (store.db as unknown as { [RUN_QUERIES]?: QueriesRunner })[RUN_QUERIES];
  const wire = runner ? await runner(calls) : await Promise.all(calls.map((call) => call.run(store)));
  return calls.map((call, i) => call.read(wire[i])) as Answers<T>;
}

/** The jobs by name as the gateway object runs them, each over a Store on its held Db (one per Db). */
export function heldQueries(queries: GatewayQuery<never, unknown, unknown>[]): Record<string, HeldQuery> {
  const stores = new WeakMap<Db, Store>();
  const storeOf = (db: Db) => {
    let store = stores.get(db);
    if (!store) {
      store = createStore(() => db);
      stores.set(db, store);
    }
    return store;
  };
  const byName: Record<string, HeldQuery> = Object.create(null);
  for (const query of queries) {
    if (byName[query.name]) throw new Error(`Two gateway queries are named ${query.name}.`);
    byName[query.name] = (db, args) => query.run(storeOf(db), args as never);
  }
  return byName;
}
