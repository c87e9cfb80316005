// The local stack: dev database (unless MONGODB_URI is set; reused if one already serves the
// folder), indexes, demo data on first run, the voice box, then `wrangler dev`. Ctrl-C stops everything it
// started. Cron Triggers fire by hand at /__scheduled?cron=... (`--test-scheduled`).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { databaseName } from '../worker/platform/db/database-name';
import { localStackConfig } from './dev-config';
import { credentialsKey } from './dev-credentials';
import { prepareDatabase } from './dev-database';
import { startOrReuseDevDb } from './dev-devdb';
import { varArguments, workerVars } from './dev-worker-vars';
import { writeLocalWranglerConfig } from './local-metrics';

const config = localStackConfig();

const children: ChildProcess[] = [];
let stopping = false;
let workerRunning = false;

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
  process.exitCode = code;
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

async function localDevDb(): Promise<string> {
  const devdb = await startOrReuseDevDb(config, (code) => {
    if (stopping) return;
    const worker = workerRunning ? '; the Worker keeps running and reports db "down"' : '';
    console.log(`[devdb] stopped (pid ${devdb.pid}, code ${code})${worker}`);
  }).catch((err: Error) => {
    throw new Error(`the dev database did not start: ${err.message}`);
  });
  if (devdb.reused) {
    console.log(`[dev] dev database pid ${devdb.pid} at ${devdb.uri}: already serving ${config.dataDir}, reused`);
    console.log(`[dev] it was not started here, so Ctrl-C leaves it running (stop it with \`kill ${devdb.pid}\`)`);
  } else {
    children.push(devdb.child);
    console.log(`[dev] dev database pid ${devdb.pid}`);
  }
  return devdb.uri;
}

async function prepare(uri: string, dbName: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const credentialsFile = join(config.dataDir, 'dev-credentials.json');
    const key = credentialsKey(config.externalUri, dbName);
    for (const line of await prepareDatabase(client.db(dbName), credentialsFile, key)) console.log(`[dev] ${line}`);
  } finally {
    await client.close();
  }
}

/** The voice box on VOICE_PORT; if it stops, the Worker keeps running and /voice/ws answers 502. */
function startVoiceBox(): void {
  const voice = spawn(process.execPath, ['--import', 'tsx', 'voice-node/src/main.ts'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
    env: { ...process.env, VOICE_PORT: String(config.voicePort) },
  });
  children.push(voice);
  voice.on('exit', (code) => {
    if (!stopping) console.log(`[voice] stopped (code ${code}); the Worker keeps running and /voice/ws answers 502`);
  });
  console.log(`[dev] voice box on port ${config.voicePort}; the Worker reaches it at VOICE_URL=${config.voiceUrl}`);
}

// DEV_DIRECT=1: the Worker served through Miniflare's own server with no wrangler proxy (scripts/workerd-direct.ts),
// as production has none; it takes the same arguments but neither reloads on changes nor serves /__scheduled.
const runner = process.env.DEV_DIRECT === '1' ? ['--import', 'tsx', 'scripts/workerd-direct.ts'] : null;

function startWorker(uri: string, dbName: string): void {
  const wrangler = spawn(
    runner ? process.execPath : 'node_modules/.bin/wrangler',
    [
      ...(runner ?? []),
      'dev',
      // wrangler.toml plus the local metrics stand-in (scripts/local-metrics.ts); the direct runner adds it itself.
      ...(runner ? [] : ['--config', writeLocalWranglerConfig()]),
      '--ip',
      '127.0.0.1',
      '--port',
      String(config.workerPort),
      '--persist-to',
      config.wranglerState,
      // Every Worker setting in this process's environment wins over the stack's values and over .dev.vars.
      ...varArguments(
        workerVars(process.env, {
          MONGODB_URI: uri,
          MONGODB_DB: dbName,
          VOICE_URL: config.voiceUrl,
          // Today's local behaviour, said out loud: Miniflare fills cf-connecting-ip with the socket's address when a
          // client sends none, and believes one that does; fine on 127.0.0.1, not for a port others reach (docs/deploy.md).
          CLIENT_ADDRESS_SOURCE: 'cf-connecting-ip',
          // The local stack is local: web push subscriptions may point at a push-service stand-in on this machine.
          WEB_PUSH_LOCAL_ENDPOINTS: 'allow',
        }),
      ),
      '--test-scheduled',
      // A fixed DevTools port for a profiler to attach to (bench/worker-profile.ts); else wrangler's default.
      ...(process.env.INSPECTOR_PORT ? ['--inspector-port', process.env.INSPECTOR_PORT] : []),
      // WORKER_LOG_LEVEL=warn: no line per request, which costs workerd a call to Node each (a bench's load).
      ...(process.env.WORKER_LOG_LEVEL ? ['--log-level', process.env.WORKER_LOG_LEVEL] : []),
    ],
    {
      // No stdin: a child in its own process group must not read the terminal.
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
      env: {
        ...process.env,
        // Offline starts stay quiet: no Request.cf download from workers.cloudflare.com, no telemetry.
        CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false',
        WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false',
        // wrangler's local trace collector streams every invocation, with its spans, to a store on disk: more Worker
        // CPU per request than anything else wrangler adds (docs/data-path.md). X_LOCAL_OBSERVABILITY=true for its explorer.
        X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? 'false',
      },
    },
  );
  children.push(wrangler);
  workerRunning = true;
  wrangler.on('exit', (code) => {
    workerRunning = false;
    stopAll(code ?? 0);
  });
  console.log(`[dev] API on http://127.0.0.1:${config.workerPort}/api (docs: /api/docs)`);
}

async function main(): Promise<void> {
  const uri = config.externalUri ?? (await localDevDb());
  const dbName = databaseName(uri, config.configuredDbName);
  await prepare(uri, dbName);
  startVoiceBox();
  startWorker(uri, dbName);
}

main().catch((err) => {
  console.error(`[dev] ${err.message}; the Worker was not started`);
  stopAll(1);
});
