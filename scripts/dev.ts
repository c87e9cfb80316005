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

const config = localStackConfig();

/** Settings passed from this process's environment to the Worker: outside services (a stand-in can be swapped in), the companion's model and the real-time timings. */
const PASSED_THROUGH = [
  'EVENT_SOURCE_ONE_URL',
  'EVENT_SOURCE_TWO_URL',
  'REALTIME_SHARDS',
  'REALTIME_PING_INTERVAL_MS',
  'REALTIME_PING_TIMEOUT_MS',
  'VOICE_WS_AUTH',
  // The voice box reads it from the same environment: the Worker prices speech by it.
  'VOICE_ENGINE',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'OPENAI_TIMEOUT_MS',
  'COMPANION_MESSAGES_PER_MINUTE',
  'EVENT_SUBMISSIONS_PER_DAY',
  'REGISTRATIONS_PER_ADDRESS_PER_HOUR',
  'REGISTRATIONS_PER_HOUR',
  'EXPO_PUSH_URL',
  'EXPO_ACCESS_TOKEN',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'VAPID_SUBJECT',
  'WEB_PUSH_HOSTS',
  // The data path (docs/data-path.md); DEVDB_LATENCY_MS and DEVDB_HANDSHAKE_MS reach the dev database through its environment.
  'DB_ACCESS',
  'DB_GATEWAYS',
  'DB_POOL_SIZE',
  'ACCESS_TOKEN_TTL_S',
  'REFRESH_TOKEN_TTL_DAYS',
  'REFRESH_GRACE_S',
  // Paid AI work (worker/billing/paid-ai.ts) and retrieval's embeddings model.
  'AI_DAILY_REPLIES_FREE',
  'AI_DAILY_REPLIES_PREMIUM',
  'AI_CREDIT_MICROS',
  'AI_REPLY_MAX_CREDITS',
  'AI_SPEECH_CREDITS_PER_1K_CHARS',
  'AI_PREMIUM_MONTHLY_CREDITS',
  'OPENAI_EMBEDDING_MODEL',
] as const;
const passedVars = PASSED_THROUGH.flatMap((name) =>
  process.env[name] ? ['--var', `${name}:${process.env[name]}`] : [],
);
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

function startWorker(uri: string, dbName: string): void {
  const wrangler = spawn(
    'node_modules/.bin/wrangler',
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(config.workerPort),
      '--persist-to',
      config.wranglerState,
      '--var',
      `MONGODB_URI:${uri}`,
      '--var',
      `MONGODB_DB:${dbName}`,
      '--var',
      `VOICE_URL:${config.voiceUrl}`,
      // The local stack is local: web push subscriptions may point at a push-service stand-in on this machine.
      '--var',
      'WEB_PUSH_LOCAL_ENDPOINTS:allow',
      ...passedVars,
      '--test-scheduled',
      // A fixed DevTools port for a profiler to attach to (bench/worker-profile.ts); else wrangler's default.
      ...(process.env.INSPECTOR_PORT ? ['--inspector-port', process.env.INSPECTOR_PORT] : []),
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
