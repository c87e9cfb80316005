import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialsKey, parseBook } from '../../../scripts/dev-credentials';
import { prepareDatabase } from '../../../scripts/dev-database';
import { useDevDatabase } from '../../support/dev-database';

const pair = (password: string) => ({
  admin: { email: 'admin@rider.local', password },
  rider: { email: 'rider@rider.local', password: `${password}-r` },
});

describe('credentials book', () => {
  it('keys the local dev database by name and others by hosts and name, never by secrets', () => {
    expect(credentialsKey(undefined, 'rider')).toBe('devdb/rider');
    expect(credentialsKey('mongodb://u:secret@h1:27017,h2/any?x=1', 'mydb')).toBe('h1:27017,h2/mydb');
  });

  it('reads a book, and a file from before books as the local rider database', () => {
    expect(parseBook(JSON.stringify({ 'devdb/a': pair('a'), junk: 1 }))).toEqual({ 'devdb/a': pair('a') });
    expect(parseBook(JSON.stringify(pair('old')))).toEqual({ 'devdb/rider': pair('old') });
    expect(parseBook('not json')).toEqual({});
    expect(parseBook(undefined)).toEqual({});
  });
});

describe('prepareDatabase keeps demo passwords per database', () => {
  const dev = useDevDatabase();
  const scratch = mkdtempSync(join(tmpdir(), 'rider-credentials-'));
  const file = join(scratch, 'dev-credentials.json');
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('prints the local passwords again after a run against another database', { timeout: 30_000 }, async () => {
    const local = await prepareDatabase(dev.client.db('local_one'), file, 'devdb/local_one');
    expect(local).toContain('seeded demo data');
    const adminLine = local.find((line) => line.startsWith('admin: admin@rider.local / '))!;
    expect(adminLine).toBeDefined();

    const external = await prepareDatabase(dev.client.db('external_one'), file, 'db.example.net/external_one');
    expect(external).toContain('seeded demo data');
    expect(external).not.toContain(adminLine);

    const again = await prepareDatabase(dev.client.db('local_one'), file, 'devdb/local_one');
    expect(again).not.toContain('seeded demo data');
    expect(again).toContain(adminLine);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')))).toEqual([
      'devdb/local_one',
      'db.example.net/external_one',
    ]);
  });

  it('never prints a recorded password that no longer signs in', { timeout: 30_000 }, async () => {
    const legacy = join(scratch, 'legacy.json');
    await prepareDatabase(dev.client.db('rider'), legacy, 'devdb/rider');
    writeFileSync(legacy, JSON.stringify(pair('overwritten-elsewhere')));
    const lines = await prepareDatabase(dev.client.db('rider'), legacy, 'devdb/rider');
    expect(lines.join('\n')).not.toContain('overwritten-elsewhere');
    expect(lines).toContain('admin: admin@rider.local (the recorded password no longer matches)');
  });
});
