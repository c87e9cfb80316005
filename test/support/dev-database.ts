import { MongoClient } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { type DevDbHandle, startDevDb } from '../../devdb/src/server';

/** The dev database of a Node test file (or describe block) and a driver client on it, once the tests run. */
export interface DevDatabase {
  readonly handle: DevDbHandle;
  readonly uri: string;
  readonly client: MongoClient;
}

/** Starts a dev database on a free port and a client on it before the tests, and closes both after them. */
export function useDevDatabase(): DevDatabase {
  let handle: DevDbHandle | undefined;
  let client: MongoClient | undefined;
  beforeAll(async () => {
    handle = await startDevDb({ port: 0, quiet: true });
    client = new MongoClient(handle.uri, { serverSelectionTimeoutMS: 3000 });
  });
  afterAll(async () => {
    await client?.close();
    await handle?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The dev database starts in beforeAll: use it inside a test or a hook.');
    return value;
  };
  return {
    get handle() {
      return started(handle);
    },
    get uri() {
      return started(handle).uri;
    },
    get client() {
      return started(client);
    },
  };
}
