import { DurableObject } from 'cloudflare:workers';
import { type Collection, type Db, type Document, MongoClient, type MongoClientOptions } from 'mongodb';
import { LIMITS } from '../worker/platform/limits';
import {
  bulkCounts,
  encodeError,
  encodeResult,
  type GatewayReply,
  type GatewayRequest,
  uncarry,
  VALUE_ARGUMENTS,
  withoutInsertedIds,
  withSequences,
} from './db-gateway-codec';
import type { HeldQuery, QueriesReply, QueriesRequest } from './db-gateway-queries';
import { sequenceOf, splitDocuments } from './encoded-documents';
import { InsertGroup, isGroupableInsert } from './insert-group';
import { type CounterSnapshot, ObjectCounters } from './object-counters';
import { repairSocketTimeouts } from './socket-timeouts';

// Held connections outlive the handshake's idle timer: without the repair, workerd fires it on every
// connection 1.5 s after it opened (durable-objects/socket-timeouts.ts), and the pool churns.
repairSocketTimeouts();

// An unreachable database answers 503 within 2 s, as with the per-request client (worker/platform/db/connection.ts):
// server selection gives up after 1.5 s.
const HELD_CLIENT_OPTIONS: MongoClientOptions = {
  serverSelectionTimeoutMS: 1500,
  // But a held client's monitor uses this as the deadline of each heartbeat too, and a busy object reads
  // the reply late: at 1.5 s a saturated gateway declared a healthy database gone, cleared its pool
  // (failing every operation in flight) and never settled again after a 10 s outage (bench/scale at
  // 2,800 riders). A refused or reset connection still fails at once; a silent one within 5 s.
  connectTimeoutMS: 5000,
  // Each reply within 10 s (timeoutMS has no effect in driver 7); needs the timer repair below.
  socketTimeoutMS: 10_000,
  minPoolSize: 0,
  // One monitoring connection per server (no separate RTT connection), so a warm gateway holds 1 + its pool.
  serverMonitoringMode: 'poll',
};

/**
 * Holds MongoDB clients across requests (a Worker cannot: its sockets belong to one request), so a
 * request pays round trips, never a handshake. Requests interleave while they wait on the database:
 * only storage calls close a Durable Object's input gate, and this object stores nothing.
 * The Worker side and the pool of objects are worker/platform/db/gateway-store.ts; docs/data-path.md the placement.
 */
export class DbGateway extends DurableObject {
  // Keyed by connection string; few entries in production (one), a handful in tests.
  private readonly clients = new Map<string, MongoClient>();
  /** Per client, its Db objects by database name (tests use a database per file; production one). */
  private readonly databases = new WeakMap<MongoClient, Map<string, Db>>();
  /** Per Db, its Collection objects by name: `db.collection()` resolves its options anew on every call too. */
  private readonly collections = new WeakMap<Db, Map<string, Collection>>();
  /** Per Db, the unordered inserts into each collection, grouped while one is on its way (insert-group.ts). */
  private readonly insertGroups = new WeakMap<Db, Map<string, InsertGroup<Uint8Array>>>();
  /** The last connection string and its client key: one string in production, so the key is worked out once. */
  private lastUri = '';
  private lastKey = '';
  /** Requests and time this instance carried (docs/scale.md); reading them is not counted. */
  private readonly counters = new ObjectCounters();

  /**
   * The jobs the domains run here by name (worker/platform/db/gateway-queries.ts), handed over where the Worker is
   * composed (worker/index.ts): this module imports no domain.
   */
  protected readonly heldQueries: Readonly<Record<string, HeldQuery>> = {};

  readCounters(): CounterSnapshot {
    return this.counters.snapshot();
  }

  /**
   * Runs named jobs side by side on the client for `uri` (an access check's account read beside the route's first
   * read, one call for both): their arguments and answers cross as they are, with no codec on either side.
   */
  queries(request: QueriesRequest): Promise<QueriesReply[]> {
    return this.counters.track(async () => {
      const client = this.client(request.uri, request.poolSize);
      const db = this.database(client, request.db);
      return Promise.all(
        request.calls.map(async ({ name, args }): Promise<QueriesReply> => {
          const started = performance.now();
          try {
            const job = this.heldQueries[name];
            if (!job) throw new Error(`The database gateway has no query named ${name}.`);
            return { ok: await job(db, args), ms: performance.now() - started };
          } catch (err) {
            // A closed client never reopens by itself: the next call starts a new one.
            if ((err as Error).name === 'MongoTopologyClosedError') this.forget(this.clientKey(request.uri), client);
            return { error: encodeError(err), ms: performance.now() - started };
          }
        }),
      );
    });
  }

  run(request: GatewayRequest): Promise<GatewayReply> {
    return this.counters.track(() => this.runHere(request));
  }

  /**
   * Runs the requests one after another, each once the one before it answered, in one call from the Worker: a
   * message's insert and its conversation's write cost one hop instead of two. After a failure none runs; the
   * replies stop at the failed one's.
   */
  runInOrder(requests: GatewayRequest[]): Promise<GatewayReply[]> {
    return this.counters.track(async () => {
      const replies: GatewayReply[] = [];
      for (const request of requests) {
        const reply = await this.runHere(request);
        replies.push(reply);
        if ('error' in reply) break;
      }
      return replies;
    });
  }

  private async runHere(request: GatewayRequest): Promise<GatewayReply> {
    // The driver's time, reported back so the request's log line can tell the database from the hop to it.
    const started = performance.now();
    try {
      const ok = encodeResult(await this.execute(request));
      return { ok, ms: performance.now() - started };
    } catch (err) {
      return { error: encodeError(err), ms: performance.now() - started };
    }
  }

  private async execute(request: GatewayRequest): Promise<unknown> {
    const values = uncarry<unknown[]>(request.values);
    const options = uncarry<Document>(request.options);
    const client = this.client(request.uri, request.poolSize);
    const db = this.database(client, request.db);
    try {
      if (request.collection === undefined) {
        if (request.method !== 'command') throw new Error(`The database gateway does not run Db.${request.method}.`);
        const command = values[0] as Document;
        const sequences = request.sequences;
        if (!sequences) return await db.command(command, options);
        if (isGroupableInsert(command, sequences, options))
          return await this.insertGroup(db, command.insert).insert(splitDocuments(sequences.documents!));
        return await db.command(withSequences(command, sequences), options);
      }
      return await runOnCollection(this.collection(db, request.collection), request.method, values, options);
    } catch (err) {
      // A closed client never reopens by itself: the next call starts a new one.
      if ((err as Error).name === 'MongoTopologyClosedError') this.forget(this.clientKey(request.uri), client);
      throw err;
    }
  }

  /**
   * The client's Db of that name, made once: `client.db()` resolves its options anew on every call, about 1 ms
   * of CPU per request over the several operations one makes (bench/worker-profile.ts).
   */
  private database(client: MongoClient, name: string): Db {
    return madeOnce(this.databases, client, name, () => client.db(name));
  }

  /** The Db's Collection of that name, made once: `db.collection()` resolves its options anew too. */
  private collection(db: Db, name: string): Collection {
    return madeOnce(this.collections, db, name, () => db.collection(name));
  }

  private insertGroup(db: Db, name: string): InsertGroup<Uint8Array> {
    return madeOnce(
      this.insertGroups,
      db,
      name,
      () =>
        new InsertGroup(
          (encoded) => db.command({ insert: name, documents: sequenceOf('documents', encoded), ordered: false }),
          LIMITS.dbGateway.insertGroupDocuments,
          LIMITS.dbGateway.insertGroupBytes,
        ),
    );
  }

  private clientKey(uri: string): string {
    if (uri !== this.lastUri) [this.lastUri, this.lastKey] = [uri, clientKey(uri)];
    return this.lastKey;
  }

  private forget(key: string, client: MongoClient): void {
    if (this.clients.get(key) !== client) return;
    this.clients.delete(key);
    // Calls still running on it finish first (socketTimeoutMS bounds each reply).
    setTimeout(() => client.close().catch(() => undefined), HELD_CLIENT_OPTIONS.socketTimeoutMS);
  }

  private client(uri: string, poolSize: number): MongoClient {
    const key = this.clientKey(uri);
    let client = this.clients.get(key);
    if (client) {
      // Most recently used last, so the oldest is the one let go.
      this.clients.delete(key);
      this.clients.set(key, client);
      return client;
    }
    client = new MongoClient(uri, { ...HELD_CLIENT_OPTIONS, maxPoolSize: poolSize });
    this.clients.set(key, client);
    for (const [oldKey, old] of this.clients) {
      if (this.clients.size <= LIMITS.dbGateway.clientsPerObject) break;
      this.forget(oldKey, old);
    }
    return client;
  }
}

/** The value `owner` keeps under `name`, made by `make` the first time it is asked for. */
function madeOnce<O extends object, V>(byOwner: WeakMap<O, Map<string, V>>, owner: O, name: string, make: () => V): V {
  let byName = byOwner.get(owner);
  if (!byName) {
    byName = new Map();
    byOwner.set(owner, byName);
  }
  let value = byName.get(name);
  if (value === undefined) {
    value = make();
    byName.set(name, value);
  }
  return value;
}

/**
 * Which client serves a connection string: the database in its path is chosen per call, so it is
 * left out, unless the string carries credentials (the path is then also where they are checked).
 */
function clientKey(uri: string): string {
  const at = uri.indexOf('@');
  if (at !== -1 && at < uri.indexOf('/', uri.indexOf('//') + 2)) return uri;
  return uri.replace(/^([^/]*\/\/[^/?]*)\/[^?]*/, '$1');
}

async function runOnCollection(
  collection: Collection,
  method: string,
  values: unknown[],
  options: Document,
): Promise<unknown> {
  if (!(method in VALUE_ARGUMENTS) || method === 'command')
    throw new Error(`The database gateway does not run Collection.${method}.`);
  // Every value position filled, an omitted one as undefined, so the options never land in a filter's place.
  const args = Array.from({ length: VALUE_ARGUMENTS[method]! }, (_, i) => values[i] ?? undefined);
  if (method === 'find') return collection.find(values[0] as Document, options).toArray();
  if (method === 'aggregate') return collection.aggregate(values[0] as Document[], options).toArray();
  const result = await (collection as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!(
    ...args,
    options,
  );
  return method === 'bulkWrite' ? bulkCounts(result as Record<string, unknown>) : withoutInsertedIds(method, result);
}
