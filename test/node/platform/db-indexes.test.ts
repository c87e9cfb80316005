import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevDbHandle, startDevDb } from '../../../devdb/src/server';

// `npm run db:indexes` as a deployer runs it, against a dev database in this process: the
// indexes must land on the database the Worker uses (worker/platform/db/database-name.ts).

const run = promisify(execFile);
let devdb: DevDbHandle;
let client: MongoClient;

beforeAll(async () => {
  devdb = await startDevDb({ port: 0, quiet: true });
  client = new MongoClient(devdb.uri, { serverSelectionTimeoutMS: 3000 });
});
afterAll(async () => {
  await client?.close();
  await devdb?.close();
});

async function dbIndexes(uri: string, configuredName?: string): Promise<string> {
  const { MONGODB_DB: _ignored, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/db-indexes.ts'], {
    env: { ...env, MONGODB_URI: uri, ...(configuredName ? { MONGODB_DB: configuredName } : {}) },
  });
  return stdout;
}

async function databasesWithUserIndexes(): Promise<string[]> {
  const { databases } = await client.db('admin').admin().listDatabases();
  const indexed: string[] = [];
  for (const { name } of databases) {
    const names = await client
      .db(name)
      .collection('users')
      .indexes()
      .then((list) => list.map((index) => index.name))
      .catch((): string[] => []);
    if (names.includes('email_unique')) indexed.push(name);
  }
  return indexed.sort();
}

async function dropAll(): Promise<void> {
  const { databases } = await client.db('admin').admin().listDatabases();
  for (const { name } of databases) await client.db(name).dropDatabase();
}

describe('npm run db:indexes picks the database by the one rule', () => {
  it('uses the URI path, even when MONGODB_DB names another', { timeout: 60_000 }, async () => {
    await dropAll();
    expect(await dbIndexes(`${devdb.uri}/mydb`, 'other')).toContain('indexes present on mydb');
    expect(await databasesWithUserIndexes()).toEqual(['mydb']);
  });

  it('uses rider when the URI names no database and MONGODB_DB is unset', { timeout: 60_000 }, async () => {
    await dropAll();
    expect(await dbIndexes(devdb.uri)).toContain('indexes present on rider');
    expect(await databasesWithUserIndexes()).toEqual(['rider']);
  });

  it('uses MONGODB_DB when the URI names no database', { timeout: 60_000 }, async () => {
    await dropAll();
    expect(await dbIndexes(`${devdb.uri}/?directConnection=true`, 'configured')).toContain(
      'indexes present on configured',
    );
    expect(await databasesWithUserIndexes()).toEqual(['configured']);
  });
});
