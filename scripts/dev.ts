// The local stack: dev database (unless MONGODB_URI is set), indexes, demo data on first
// run, then `wrangler dev` with cron testing. Ctrl-C stops everything it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { applyIndexes } from '../worker/db/indexes';
import { localStackConfig } from './dev-config';
import { seedDemoData } from './seed';

const config = localStackConfig();
const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  // Each child leads its own process group, so wrangler's workerd and tsx's node go too.
  for (const child of children) {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

function startDevDb(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'devdb/src/cli.ts', '--port', String(config.dbPort), '--data', config.dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      console.log(`[devdb] ${line}`);
      const ready = /^devdb ready (mongodb:\/\/\S+)/.exec(line);
      if (ready) {
        console.log(`[dev] dev database pid ${child.pid}`);
        resolve(`${ready[1]}/${config.dbName}`);
      }
    });
    child.on('exit', (code) => {
      reject(new Error(`dev database exited with code ${code}`));
      if (!stopping) console.log(`[devdb] stopped (pid ${child.pid}); the Worker keeps running and reports db "down"`);
    });
  });
}

async function prepareDatabase(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const db = client.db(config.externalUri ? process.env.MONGODB_DB || undefined : config.dbName);
    console.log(`[dev] ${await applyIndexes(db)} indexes applied to ${db.databaseName}`);
    const credentialsFile = join(config.dataDir, 'dev-credentials.json');
    const credentials = await seedDemoData(db);
    if (credentials) {
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2), { mode: 0o600 });
      console.log('[dev] seeded demo data');
    }
    if (existsSync(credentialsFile)) {
      const { admin, rider } = JSON.parse(readFileSync(credentialsFile, 'utf8'));
      console.log(`[dev] admin: ${admin.email} / ${admin.password}`);
      console.log(`[dev] rider: ${rider.email} / ${rider.password}`);
    }
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const uri = config.externalUri ?? (await startDevDb());
  await prepareDatabase(uri);
  const wrangler = spawn(
    'node_modules/.bin/wrangler',
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(config.workerPort),
      '--test-scheduled',
      '--var',
      `MONGODB_URI:${uri}`,
      ...(config.externalUri ? [] : ['--var', `MONGODB_DB:${config.dbName}`]),
    ],
    // No stdin: a child in its own process group must not read the terminal.
    { stdio: ['ignore', 'inherit', 'inherit'], detached: true },
  );
  children.push(wrangler);
  wrangler.on('exit', (code) => stopAll(code ?? 0));
  console.log(`[dev] API on http://127.0.0.1:${config.workerPort}/api (docs: /api/docs)`);
}

main().catch((err) => {
  console.error(`[dev] ${err.message}`);
  stopAll(1);
});
