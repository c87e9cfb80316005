import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient, MongoServerError } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevDb } from '../src/server.js';
import { type AnyDoc, LONG_TEST_MS, tempDir as makeTempDir, sleep, startTestServer } from './helpers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = path.join(repoRoot, 'devdb/src/cli.ts');

const dirs: string[] = [];
function tempDir(): string {
  const dir = makeTempDir();
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('persistence across restarts', { timeout: LONG_TEST_MS }, () => {
  it('restores documents, indexes, options and drops', async () => {
    const dataDir = tempDir();
    const first = await startTestServer({ dataDir });
    const db = first.client.db('app');
    await db.createCollection('users', { validator: { email: { $exists: true } } });
    const users = db.collection<AnyDoc>('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ gone: 1 });
    await users.insertMany([
      { email: 'a', n: 1 },
      { email: 'b', n: 2 },
      { email: 'c', n: 3 },
    ]);
    await users.updateOne({ email: 'b' }, { $set: { n: 20 } });
    await users.deleteOne({ email: 'c' });
    await users.dropIndex('gone_1');
    await db.collection<AnyDoc>('temp').insertOne({ x: 1 });
    await db.collection<AnyDoc>('temp').drop();
    await first.client.db('scratch').collection<AnyDoc>('s').insertOne({ x: 1 });
    await first.client.db('scratch').dropDatabase();
    await first.close();

    const second = await startTestServer({ dataDir });
    try {
      const db2 = second.client.db('app');
      expect(
        await db2
          .collection<AnyDoc>('users')
          .find({}, { projection: { _id: 0 } })
          .sort({ email: 1 })
          .toArray(),
      ).toEqual([
        { email: 'a', n: 1 },
        { email: 'b', n: 20 },
      ]);
      expect((await db2.collection<AnyDoc>('users').listIndexes().toArray()).map((i) => i.name)).toEqual([
        '_id_',
        'email_1',
      ]);
      const dup = await db2
        .collection<AnyDoc>('users')
        .insertOne({ email: 'a' })
        .catch((e: unknown) => e);
      expect(dup).toBeInstanceOf(MongoServerError);
      expect((dup as MongoServerError).code).toBe(11000);
      const infos = await db2.listCollections({}, { nameOnly: false }).toArray();
      expect(infos.map((i) => i.name)).toEqual(['users']);
      expect(infos[0]!.options).toEqual({ validator: { email: { $exists: true } } });
      const dbs = await second.client.db('admin').admin().listDatabases({ nameOnly: true });
      expect(dbs.databases.map((d) => d.name)).toEqual(['app']);
    } finally {
      await second.close();
    }
    // A clean shutdown folds the journal into the snapshot.
    expect(fs.readdirSync(path.join(dataDir, 'app')).sort()).toEqual(['snapshot.bson']);
  });

  it('refuses a data dir another server has open', async () => {
    const dataDir = tempDir();
    const first = await startDevDb({ port: 0, quiet: true, dataDir });
    try {
      await expect(startDevDb({ port: 0, quiet: true, dataDir })).rejects.toThrow(/already open/);
    } finally {
      await first.close();
    }
  });

  it('keeps memory-only servers off the disk', async () => {
    const t = await startTestServer();
    await t.db().collection<AnyDoc>('c').insertOne({ a: 1 });
    await t.close();
    const again = await startTestServer();
    expect((await again.client.db('admin').admin().listDatabases()).databases).toEqual([]);
    await again.close();
  });
});

interface Child {
  proc: ChildProcess;
  uri: string;
  stderr: () => string;
}

function spawnCli(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', cliPath, '--port', '0', '--data', dataDir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    proc.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /^devdb ready (mongodb:\/\/127\.0\.0\.1:\d+) data=(.+)$/m.exec(stdout);
      if (m) {
        expect(m[2]).toBe(dataDir);
        resolve({ proc, uri: m[1]!, stderr: () => stderr });
      }
    });
    proc.once('exit', (code) => reject(new Error(`devdb exited early (${code}): ${stderr}`)));
  });
}

function exited(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

describe('crash safety', { timeout: LONG_TEST_MS }, () => {
  it('keeps every acknowledged write across kill -9', async () => {
    const dataDir = tempDir();

    // Run 1: seed, then a graceful SIGTERM (snapshot written, exit 0).
    const a = await spawnCli(dataDir);
    const clientA = new MongoClient(a.uri, { serverSelectionTimeoutMS: 5000 });
    const seedColl = clientA.db('crash').collection<AnyDoc>('docs');
    await seedColl.createIndex({ email: 1 }, { unique: true });
    await seedColl.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: `seed-${i}`, email: `seed-${i}@x` })));
    await clientA.close();
    a.proc.kill('SIGTERM');
    expect(await exited(a.proc)).toBe(0);

    // Run 2: concurrent writers, killed without warning mid-stream.
    const b = await spawnCli(dataDir);
    const clientB = new MongoClient(b.uri, { serverSelectionTimeoutMS: 5000, retryWrites: false });
    const coll = clientB.db('crash').collection<AnyDoc>('docs');
    const acked: string[] = [];
    let ackedIncs = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const _id = `w${w}-${n}`;
        try {
          await coll.insertOne({ _id, email: `${_id}@x` });
        } catch {
          return;
        }
        acked.push(_id);
      }
    };
    const incrementer = async () => {
      while (!stop) {
        try {
          await coll.updateOne({ _id: 'counter' }, { $inc: { n: 1 } }, { upsert: true });
        } catch {
          return;
        }
        ackedIncs++;
      }
    };
    const loops = [writer(0), writer(1), writer(2), incrementer()];
    while (acked.length < 300) await sleep(10);
    b.proc.kill('SIGKILL');
    await exited(b.proc);
    stop = true;
    await Promise.all(loops);
    await clientB.close(true).catch(() => {});

    // Simulate a write torn by the crash: a record header promising more bytes than exist.
    const journal = fs.readdirSync(path.join(dataDir, 'crash')).find((f) => f.startsWith('journal-'));
    expect(journal).toBeDefined();
    const journalPath = path.join(dataDir, 'crash', journal!);
    const sizeBefore = fs.statSync(journalPath).size;
    fs.appendFileSync(journalPath, Buffer.from([0x40, 0, 0, 0, 0x02, 0x61, 0]));

    // Run 3: everything acknowledged is back; at most the in-flight writes extra.
    const c = await spawnCli(dataDir);
    try {
      const clientC = new MongoClient(c.uri, { serverSelectionTimeoutMS: 5000 });
      const docs = clientC.db('crash').collection<AnyDoc>('docs');
      const ids = new Set((await docs.find({}, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id)));
      const missing = acked.filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
      for (let i = 0; i < 100; i++) expect(ids.has(`seed-${i}`)).toBe(true);
      const written = [...ids].filter((id) => id.startsWith('w')).length;
      expect(written).toBeGreaterThanOrEqual(acked.length);
      expect(written).toBeLessThanOrEqual(acked.length + 3);
      const counter = await docs.findOne({ _id: 'counter' });
      expect(counter!.n).toBeGreaterThanOrEqual(ackedIncs);
      expect(counter!.n).toBeLessThanOrEqual(ackedIncs + 1);
      const dup = await docs.insertOne({ email: 'seed-1@x' }).catch((e: { code: number }) => e);
      expect(dup).toMatchObject({ code: 11000 });
      expect(c.stderr()).toMatch(/discarding 7 bytes of incomplete trailing journal record/);
      expect(fs.statSync(journalPath).size).toBeGreaterThanOrEqual(sizeBefore);
      await clientC.close();
    } finally {
      c.proc.kill('SIGTERM');
      expect(await exited(c.proc)).toBe(0);
    }
  });
});
