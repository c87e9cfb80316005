import { MongoClient, type MongoClientOptions } from 'mongodb';
import { repairSocketTimeouts } from '../../../durable-objects/socket-timeouts';
import { requireSetting } from '../config';
import type { Env } from '../env';
import type { RequestTiming } from '../ops/request-timing';
import { MissingSettingError } from '../setting-error';
import { databaseName } from './database-name';
import { openGatewayStore } from './gateway-store';
import { createStore, type Store } from './store';

repairSocketTimeouts();

/**
 * Tight timeouts so an unreachable database answers 503 within two seconds instead of
 * holding the request for the driver's 30-second default.
 */
const CLIENT_OPTIONS: MongoClientOptions = {
  serverSelectionTimeoutMS: 1500,
  connectTimeoutMS: 1500,
  // Bounds the wait for each reply, so a server that accepts but never answers cannot hold a request
  // (timeoutMS would read better but has no effect in driver 7). Needs durable-objects/socket-timeouts.ts.
  socketTimeoutMS: 10_000,
  maxPoolSize: 4,
  minPoolSize: 0,
  // A fresh client per request: background monitoring would only outlive it.
  serverMonitoringMode: 'poll',
};

export interface RequestConnection {
  store: Store;
  /** Closes the client if this request opened one. */
  release(): Promise<void>;
}

/**
 * The request's Store. DB_ACCESS=gateway: operations go over RPC to Durable Objects that hold their
 * clients (durable-objects/db-gateway.ts), so a request pays no handshake; the default.
 * DB_ACCESS=direct: one MongoClient per request (docs/data-path.md).
 */
export function openRequestConnection(env: Env, timing?: RequestTiming): RequestConnection {
  const access = env.DB_ACCESS?.trim() || 'gateway';
  if (access === 'gateway') return { store: openGatewayStore(env, timing), release: async () => undefined };
  if (access !== 'direct') throw new MissingSettingError('DB_ACCESS', `must be "gateway" or "direct", not "${access}"`);
  return openDirectConnection(env, timing);
}

/**
 * One MongoClient per request, created on first use. A client kept at module scope breaks
 * in workerd (its sockets belong to the request that opened them), so each request owns
 * its client and closes it once the response is out.
 */
function openDirectConnection(env: Env, timing?: RequestTiming): RequestConnection {
  let client: MongoClient | undefined;
  const store = createStore(() => {
    client = new MongoClient(requireSetting(env, 'MONGODB_URI'), { ...CLIENT_OPTIONS, monitorCommands: !!timing });
    // The driver times each command itself; its events are the request's database time.
    if (timing)
      client.on('commandSucceeded', (event) => {
        timing.dbMs += event.duration;
        timing.dbCalls += 1;
      });
    return client.db(databaseName(requireSetting(env, 'MONGODB_URI'), env.MONGODB_DB));
  });
  return {
    store,
    release: async () => {
      if (client) await client.close().catch(() => undefined);
    },
  };
}
