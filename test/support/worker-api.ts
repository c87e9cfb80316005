import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { type Db, MongoClient } from 'mongodb';
import { applyIndexes } from '../../worker/data';
import worker from '../../worker/index';
import { databaseName, withDatabase } from '../../worker/platform/db/database-name';
import type { Env } from '../../worker/platform/env';
import { type ApiDocument, contractViolation } from './response-contract';

/** Calls the Worker's own fetch handler inside workerd and waits for its background work; no contract check. */
export async function callWorker(request: Request, testEnv: TestEnv): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

let documentPromise: Promise<ApiDocument> | undefined;

/** The OpenAPI document the Worker serves, fetched once per test file. */
export function apiDocument(testEnv: TestEnv): Promise<ApiDocument> {
  documentPromise ??= callWorker(new Request('http://rider.test/api/openapi.json'), testEnv).then((res) => res.json());
  return documentPromise;
}

export type TestEnv = Env & { STAND_INS_URL: string };

/** A database name of its own for each test file (and each call, where a test wants one). */
export function uniqueDbName(label: string): string {
  return `t_${label.replace(/\W/g, '_')}_${crypto.randomUUID().slice(0, 8)}`;
}

export interface Api {
  env: TestEnv;
  /** Calls the Worker's own fetch handler inside workerd, and waits for its background work. */
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Runs `fn` with a direct driver connection to this test's database. */
  db<T>(fn: (db: Db) => Promise<T>): Promise<T>;
}

const directClients = new Map<string, Promise<MongoClient>>();

/**
 * One driver connection per database for a file's direct reads and seeds, kept open: a client per call cost a
 * connection handshake and its monitor each time, some hundreds per file. A file's database is its own, so no
 * client is shared between files; a failed connect is forgotten so the next call tries again.
 */
function directClient(uri: string): Promise<MongoClient> {
  let client = directClients.get(uri);
  if (!client) {
    client = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 }).connect();
    client.catch(() => directClients.delete(uri));
    directClients.set(uri, client);
  }
  return client;
}

/** The Worker under test, bound to its own database and any env overrides. */
export function createApi(label: string, overrides: Partial<TestEnv> = {}, options: { indexes?: boolean } = {}): Api {
  // The URI's path decides the database (worker/platform/db/database-name.ts), so the per-file name goes there.
  const testEnv = {
    ...(env as TestEnv),
    MONGODB_URI: withDatabase((env as TestEnv).MONGODB_URI!, uniqueDbName(label)),
    ...overrides,
  } as TestEnv;
  let indexed: Promise<unknown> | undefined = options.indexes === false ? Promise.resolve() : undefined;
  const api: Api = {
    env: testEnv,
    async fetch(path, init = {}) {
      // A fresh database gets the production indexes first, as `npm run db:indexes` would.
      indexed ??= api.db(applyIndexes);
      await indexed;
      const { json, headers, ...rest } = init;
      const request = new Request(`http://rider.test${path}`, {
        ...rest,
        headers: {
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(headers as Record<string, string>),
        },
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
      const response = await callWorker(request, testEnv);
      // Every response a test receives must match the API description the Worker serves.
      const violation = await contractViolation(await apiDocument(testEnv), request.method, request.url, response);
      if (violation) throw new Error(`response breaks the API description: ${violation}`);
      return response;
    },
    async db(fn) {
      const client = await directClient(testEnv.MONGODB_URI!);
      return fn(client.db(databaseName(testEnv.MONGODB_URI, testEnv.MONGODB_DB)));
    },
  };
  return api;
}
