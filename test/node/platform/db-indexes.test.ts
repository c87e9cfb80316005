import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useDevDatabase } from '../../support/dev-database';

// `npm run db:indexes` as a deployer runs it, against a dev database in this process: the
// indexes must land on the database the Worker uses (worker/platform/db/database-name.ts).

const run = promisify(execFile);
const dev = useDevDatabase();

async function dbIndexes(uri: string, configuredName?: string): Promise<string> {
  const { MONGODB_DB: _ignored, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/db-indexes.ts'], {
    env: { ...env, MONGODB_URI: uri, ...(configuredName ? { MONGODB_DB: configuredName } : {}) },
  });
  return stdout;
}

async function databasesWithUserIndexes(): Promise<string[]> {
  const { databases } = await dev.client.db('admin').admin().listDatabases();
  const indexed: string[] = [];
  for (const { name } of databases) {
    const names = await dev.client
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
  const { databases } = await dev.client.db('admin').admin().listDatabases();
  for (const { name } of databases) await dev.client.db(name).dropDatabase();
}

describe('npm run db:indexes picks the database by the one rule', () => {
  it('uses the URI path, even when MONGODB_DB names another', { timeout: 60_000 }, async () => {
    await dropAll();
    expect(await dbIndexes(`${dev.uri}/mydb`, 'other')).toContain('indexes present on mydb');
    expect(await databasesWithUserIndexes()).toEqual(['mydb']);
  });

  it('uses rider when the URI names no database and MONGODB_DB is unset', { timeout: 60_000 }, async () => {
    await dropAll();
    expect(await dbIndexes(dev.uri)).toContain('indexes present on rider');
    expect(await databasesWithUserIndexes()).toEqual(['rider']);
  });

  it('uses MONGODB_DB when the URI names no database', { timeout: 60_000 }, async () => {
    await dropAll();
    expect(await dbIndexes(`${dev.uri}/?directConnection=true`, 'configured')).toContain(
      'indexes present on configured',
    );
    expect(await databasesWithUserIndexes()).toEqual(['configured']);
  });
});
