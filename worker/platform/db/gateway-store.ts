import type { Collection, Db, Document } from 'mongodb';
import {
  assignIds,
  decodeError,
  encodeOptions,
  encodeValues,
  type GatewayReply,
  type GatewayRequest,
  uncarry,
  VALUE_ARGUMENTS,
  withInsertedIds,
  withoutSequences,
} from '../../../durable-objects/db-gateway-codec';
import type { QueriesReply, QueriesRequest } from '../../../durable-objects/db-gateway-queries';
import { positiveIntSetting, requireSetting } from '../config';
import type { Env } from '../env';
import { LIMITS } from '../limits';
import { logError } from '../ops/log-line';
import type { RequestTiming } from '../ops/request-timing';
import { databaseName } from './database-name';
import { type QueriesRunner, RUN_QUERIES } from './gateway-queries';
import { mayRetry } from './gateway-retry';
import { IN_ORDER, type InOrderRunner, type InOrderStep } from './in-order';
import { createStore, type Store } from './store';

/** The RPC surface of durable-objects/db-gateway.ts, as the Worker calls it. */
type GatewayStub = {
  run(request: GatewayRequest): Promise<GatewayReply>;
  runInOrder(requests: GatewayRequest[]): Promise<GatewayReply[]>;
  queries(request: QueriesRequest): Promise<QueriesReply[]>;
};

/** Raised when no gateway object answers: worker/platform/db/errors.ts counts it as an unreachable database (503). */
export class GatewayUnavailableError extends Error {
  override name = 'DatabaseGatewayUnavailableError';
}

// Per isolate, plain numbers (no I/O objects, so module scope is fine in workerd): calls in flight
// and when each object last failed. Each isolate prefers its own random object, so isolates spread
// over the pool while one isolate's sequential requests reuse one object's warm connections.
const inFlight: number[] = [];
const failedAt: number[] = [];
let preferred = -1;

function pickGateway(count: number, spillAt: number, avoid: number): number {
  if (preferred < 0 || preferred >= count) preferred = Math.floor(Math.random() * count);
  const now = Date.now();
  let best = -1;
  for (let step = 0; step < count; step += 1) {
    const index = (preferred + step) % count;
    if (index === avoid || now - (failedAt[index] ?? -Infinity) < LIMITS.dbGateway.failedObjectPauseMs) continue;
    // Fill an object's connection pool before spilling to the next: beyond it, calls queue for a connection.
    if ((inFlight[index] ?? 0) < spillAt) return index;
    if (best < 0 || (inFlight[index] ?? 0) < (inFlight[best] ?? 0)) best = index;
  }
  return best >= 0 ? best : (avoid + 1) % count;
}

/** What a Worker's settings say about the gateway: read once per env object, as an isolate serves many requests with one. */
interface GatewaySettings {
  uri: string;
  db: string;
  count: number;
  spillAt: number;
}
const settingsOf = new WeakMap<Env, GatewaySettings>();

function gatewaySettings(env: Env): GatewaySettings {
  let settings = settingsOf.get(env);
  if (!settings) {
    const uri = requireSetting(env, 'MONGODB_URI');
    settings = {
      uri,
      db: databaseName(uri, env.MONGODB_DB),
      count: positiveIntSetting(env, 'DB_GATEWAYS', LIMITS.dbGateway.objects),
      spillAt: positiveIntSetting(env, 'DB_POOL_SIZE', LIMITS.dbGateway.poolSize),
    };
    settingsOf.set(env, settings);
  }
  return settings;
}

export function openGatewayStore(env: Env, timing?: RequestTiming): Store {
  const { uri, db, count, spillAt } = gatewaySettings(env);
  const stubs: GatewayStub[] = [];
  const stub = (index: number): GatewayStub => {
    const namespace = env.DB_GATEWAY;
    const hint = env.DB_GATEWAY_LOCATION as DurableObjectLocationHint | undefined;
    stubs[index] ??= namespace.get(namespace.idFromName(`db-gateway-${index}`), hint ? { locationHint: hint } : {});
    return stubs[index];
  };

  function prepare(collection: string | undefined, method: string, args: unknown[]) {
    const valueCount = VALUE_ARGUMENTS[method];
    if (valueCount === undefined)
      throw new Error(`The database gateway does not offer ${method} (worker/platform/db/gateway-store.ts).`);
    const values = args.slice(0, valueCount);
    assignIds(method, values);
    let sequences: Record<string, Uint8Array> | undefined;
    if (method === 'command') [values[0], sequences] = withoutSequences(values[0] as Document);
    const request: GatewayRequest = {
      uri,
      db,
      poolSize: spillAt,
      collection,
      method,
      values: encodeValues(values),
      options: encodeOptions(args[valueCount] as Document | undefined),
      ...(sequences && { sequences }),
    };
    return { method, values, request };
  }
  type Prepared = ReturnType<typeof prepare>;

  /** Sends over one gateway object, once more over another when the first did not answer and every call may be repeated. */
  async function send<T extends GatewayReply | GatewayReply[] | QueriesReply[]>(
    mayRepeat: (err: unknown) => boolean,
    over: (stub: GatewayStub) => Promise<T>,
  ): Promise<T> {
    let avoid = -1;
    for (let attempt = 0; ; attempt += 1) {
      const index = pickGateway(count, spillAt, avoid);
      inFlight[index] = (inFlight[index] ?? 0) + 1;
      const started = performance.now();
      try {
        const reply = await over(stub(index));
        if (timing) {
          timing.gatewayMs += performance.now() - started;
          for (const one of Array.isArray(reply) ? reply : [reply]) timing.dbMs += one.ms ?? 0;
          timing.dbCalls += 1;
        }
        return reply;
      } catch (err) {
        failedAt[index] = Date.now();
        // A broken stub stays broken: the next call gets a fresh one.
        delete stubs[index];
        if (attempt >= 1 || count < 2 || !mayRepeat(err)) {
          logError(`db-gateway-${index}`, err);
          throw new GatewayUnavailableError(`The database gateway did not answer: ${(err as Error).message}`);
        }
        avoid = index;
      } finally {
        inFlight[index] = (inFlight[index] ?? 1) - 1;
      }
    }
  }

  const mayRepeatAll = (calls: Prepared[]) => (err: unknown) =>
    calls.every((one) => mayRetry(one.method, one.values, err));

  const answer = ({ method, values }: Prepared, reply: GatewayReply) => {
    if ('error' in reply) throw decodeError(reply.error);
    return withInsertedIds(method, values, uncarry(reply.ok));
  };

  /** While a runner gathers the steps' operations: each one's request and how to settle it. */
  let gathering: { prepared: Prepared; settle: (reply: GatewayReply | undefined) => void }[] | undefined;

  async function call(collection: string | undefined, method: string, args: unknown[]): Promise<unknown> {
    const prepared = prepare(collection, method, args);
    if (gathering) {
      const list = gathering;
      return new Promise((resolve, reject) =>
        list.push({
          prepared,
          settle: (reply) => {
            if (!reply) return reject(new Error(`${collection}.${method} was not run: an earlier operation failed.`));
            try {
              resolve(answer(prepared, reply));
            } catch (err) {
              reject(err);
            }
          },
        }),
      );
    }
    return answer(prepared, await send(mayRepeatAll([prepared]), (gateway) => gateway.run(prepared.request)));
  }

  /** The steps' operations gathered as they are issued (before any await), then sent in one call. */
  const inOrder: InOrderRunner = async (steps: InOrderStep[], store: Store) => {
    const gathered: NonNullable<typeof gathering> = [];
    gathering = gathered;
    let results: Promise<unknown>[];
    try {
      results = steps.map((step) => step(store));
    } finally {
      gathering = undefined;
    }
    if (gathered.length !== steps.length)
      throw new Error(`writeInOrder: ${steps.length} steps issued ${gathered.length} operations before awaiting.`);
    let replies: GatewayReply[];
    try {
      replies = await send(mayRepeatAll(gathered.map((one) => one.prepared)), (gateway) =>
        gateway.runInOrder(gathered.map((one) => one.prepared.request)),
      );
    } catch (err) {
      for (const result of results) result.catch(() => undefined);
      throw err;
    }
    for (const [i, one] of gathered.entries()) one.settle(replies[i]);
    return Promise.all(results);
  };

  /** Named jobs in one call; their arguments and answers cross as they are. */
  const queries: QueriesRunner = async (calls) => {
    const replies = await send(
      (err) => calls.every((one) => one.repeatable || (err as { overloaded?: boolean }).overloaded === true),
      (gateway) =>
        gateway.queries({ uri, db, poolSize: spillAt, calls: calls.map(({ name, args }) => ({ name, args })) }),
    );
    return replies.map((reply) => {
      if ('error' in reply) throw decodeError(reply.error);
      return reply.ok;
    });
  };

  return createStore(() => gatewayDb(call, inOrder, queries));
}

type Call = (collection: string | undefined, method: string, args: unknown[]) => Promise<unknown>;

/** The Db surface the services use (`collection`, `command`), over the gateway. */
function gatewayDb(call: Call, inOrder: InOrderRunner, queries: QueriesRunner): Db {
  const collections = new Map<string, Collection>();
  const db = {
    collection(name: string) {
      let collection = collections.get(name);
      if (!collection) {
        collection = gatewayCollection(name, call);
        collections.set(name, collection);
      }
      return collection;
    },
    command: (command: Document, options?: Document) => call(undefined, 'command', [command, options]),
    [IN_ORDER]: inOrder,
    [RUN_QUERIES]: queries,
  };
  return db as unknown as Db;
}

function gatewayCollection(name: string, call: Call): Collection {
  return new GatewayCollection(name, call) as unknown as Collection;
}

/**
 * The Collection surface over the gateway. Its methods live on the prototype, made once: a request opens its
 * collections afresh, and a closure per method per collection cost every request its allocations.
 */
class GatewayCollection {
  constructor(
    readonly collectionName: string,
    readonly call: Call,
  ) {}
  find(filter: Document = {}, options: Document = {}) {
    return new GatewayCursor((opts) => this.call(this.collectionName, 'find', [filter, opts]), { ...options });
  }
  aggregate(pipeline: Document[] = [], options: Document = {}) {
    return new GatewayCursor((opts) => this.call(this.collectionName, 'aggregate', [pipeline, opts]), { ...options });
  }
}
for (const method of Object.keys(VALUE_ARGUMENTS)) {
  if (method === 'command' || method === 'find' || method === 'aggregate') continue;
  Object.defineProperty(GatewayCollection.prototype, method, {
    value(this: GatewayCollection, ...args: unknown[]) {
      return this.call(this.collectionName, method, args);
    },
  });
}

/**
 * The cursor methods the services chain (sort, skip, limit, project, map) gathered into the
 * operation's options; toArray runs it in one round trip to the gateway.
 */
class GatewayCursor<T = Document> {
  constructor(
    private readonly run: (options: Document) => Promise<unknown>,
    private readonly options: Document,
    private readonly transform: (doc: Document) => T = (doc) => doc as T,
  ) {}
  sort(sort: Document) {
    this.options.sort = sort;
    return this;
  }
  skip(skip: number) {
    this.options.skip = skip;
    return this;
  }
  limit(limit: number) {
    this.options.limit = limit;
    return this;
  }
  project(projection: Document) {
    this.options.projection = projection;
    return this;
  }
  batchSize(size: number) {
    this.options.batchSize = size;
    return this;
  }
  map<U>(fn: (doc: T) => U): GatewayCursor<U> {
    return new GatewayCursor(this.run, this.options, (doc) => fn(this.transform(doc)));
  }
  async toArray(): Promise<T[]> {
    return ((await this.run(this.options)) as Document[]).map(this.transform);
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* await this.toArray();
  }
}
