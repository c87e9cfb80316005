import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Db, MongoClient, type MongoClientOptions, type ObjectId } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { type DevDbHandle, type DevDbOptions, startDevDb } from '../src/server.js';

export interface TestServer {
  server: DevDbHandle;
  client: MongoClient;
  /** A fresh database name per call, so tests never share state. */
  db(prefix?: string): Db;
  close(): Promise<void>;
}

let dbCounter = 0;

export async function startTestServer(
  opts: DevDbOptions = {},
  clientOpts: MongoClientOptions = {},
): Promise<TestServer> {
  const server = await startDevDb({ port: 0, quiet: true, ...opts });
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000, ...clientOpts });
  await client.connect();
  return {
    server,
    client,
    db: (prefix = 't') => client.db(`${prefix}_${process.pid}_${++dbCounter}`),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * A test server for this file's tests: started before them, closed after them. Its members are read inside tests
 * and hooks, once the server is up.
 */
export function useTestServer(): Omit<TestServer, 'close'> {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = (): TestServer => {
    if (!started) throw new Error('The test server starts in beforeAll: use it inside a test or a hook.');
    return started;
  };
  return {
    get server() {
      return running().server;
    },
    get client() {
      return running().client;
    },
    db: (prefix?: string) => running().db(prefix),
  };
}

export function tempDir(prefix = 'devdb-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Test documents use numbers and strings as `_id` freely, unlike the driver's default schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDoc = { _id?: string | number | ObjectId; [field: string]: any };

/** The limit for a test that restarts or kills a server: seconds alone, over 30 s beside the rest of the suite on two busy cores. */
export const LONG_TEST_MS = 120_000;
