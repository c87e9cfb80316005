/**
 * Analytics ingestion on the local stack (scripts/dev.ts: wrangler dev + the dev database):
 * 100,000 events sent as 1,000 batches of 100 to `POST /api/analytics/events` by CONCURRENCY
 * clients; prints events per second, batch latency p50/p95, and what the store then holds.
 * A fifth of the batches come from signed-in riders (their events carry userId), every 50th
 * event is invalid (quarantined), and the last RETRIES batches are resent whole (duplicates).
 * Beside it, the floor: the same envelopes inserted as they are with a bare `insertMany` per batch, CONCURRENCY in
 * flight, through the driver, timed before and after the route, and the route's rate as a share of their mean.
 * Fairness: the dev database runs in a process of its own (as a database server does), so the load client shares
 * no event loop with it; each side writes into a fresh collection carrying analytics_events' indexes, and each
 * side's events are removed once counted, so every side starts from the same database state. The route's client is
 * node:http with kept-alive connections, as the floor's driver keeps its pool (fetch cost the load client three times
 * the CPU per batch on this 2-core machine, taken from the Worker it measures), and the Worker logs no line per request
 * (WORKER_LOG_LEVEL=warn: each line is a call from workerd to Node, which production does not make).
 * Run: npx tsx bench/analytics-ingest.ts   (EVENTS, BATCH, CONCURRENCY, RIDERS, RETRIES, PORT override;
 * DEVDB_CPU_PROF=<dir> writes a CPU profile of the database process there)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { applyIndexes } from '../worker/data.js';
import { envelope } from './analytics-envelopes.js';
import { treeCpuSeconds } from './process-cpu.js';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const BATCH = Number(process.env.BATCH ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const RIDERS = Number(process.env.RIDERS ?? 20);
const RETRIES = Number(process.env.RETRIES ?? 10);
const PORT = Number(process.env.PORT ?? 8799);
const base = `http://127.0.0.1:${PORT}`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function register(i: number): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${base}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Bench ${i}`, email: `bench${i}@example.com`, password: 'correct horse' }),
  });
  const body = (await res.json()) as { token: string; user: { _id: string } };
  return { token: body.token, userId: body.user._id };
}

/** The dev database as its own process, in memory; resolves with its URI once it prints its ready line. */
async function startDatabase(): Promise<{ child: ChildProcess; uri: string }> {
  const profile = process.env.DEVDB_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.DEVDB_CPU_PROF}`] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'devdb/src/cli.ts', '--port', '0', '--memory'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  const uri = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const ready = /devdb ready (mongodb:\/\/\S+)/.exec(log);
      if (ready) resolve(ready[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the dev database exited with ${code}:\n${log}`)));
  });
  return { child, uri };
}

/** Stops the database process and waits for it, so a CPU profile is written before the bench exits. */
async function stopDatabase(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

async function startStack(uri: string, dataDir: string): Promise<ChildProcess> {
  const stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    env: {
      ...process.env,
      MONGODB_URI: uri,
      PORT: String(PORT),
      DEVDB_DATA: dataDir,
      WRANGLER_STATE: path.join(dataDir, 'wrangler'),
      // Every rider registers from this machine's one address.
      REGISTRATIONS_PER_ADDRESS_PER_HOUR: String(RIDERS),
      WORKER_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  let exited: number | null | undefined;
  const onData = (chunk: Buffer) => {
    log += chunk.toString();
  };
  stack.stdout!.on('data', onData);
  stack.stderr!.on('data', onData);
  stack.on('exit', (code) => {
    exited = code;
  });
  // Asked rather than read from the log: at WORKER_LOG_LEVEL=warn wrangler prints no "Ready on" line.
  for (;;) {
    if (exited !== undefined) throw new Error(`local stack exited with ${exited}:\n${log}`);
    const ready = await fetch(`${base}/api/health`).then(
      () => true,
      () => false,
    );
    if (ready) return stack;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One POST of a batch over a kept-alive connection: its status and parsed answer. */
function postBatch(body: string, token: string | null): Promise<{ status: number; answer: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...(token ? { 'x-auth-token': token } : {}),
    };
    const req = http.request(`${base}/api/analytics/events`, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, answer: JSON.parse(Buffer.concat(chunks).toString()) });
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-'));
  const db = await startDatabase();
  const uri = `${db.uri}/bench`;
  const client = new MongoClient(uri);
  let stack: ChildProcess | undefined;
  try {
    const database = client.db('bench');
    await applyIndexes(database);
    stack = await startStack(uri, dataDir);
    const riders = await Promise.all(Array.from({ length: RIDERS }, (_, i) => register(i)));

    const batches = Array.from({ length: Math.ceil(EVENTS / BATCH) }, (_, b) => {
      const rider = b % 5 === 0 ? riders[b % RIDERS]! : null;
      const events = Array.from({ length: Math.min(BATCH, EVENTS - b * BATCH) }, (_, k) =>
        envelope(b * BATCH + k, rider?.userId ?? null),
      );
      return { rider, body: JSON.stringify({ events }) };
    });
    const queue = [...batches, ...batches.slice(-RETRIES)];
    const latencies: number[] = [];
    const totals: Record<string, number> = { accepted: 0, duplicates: 0, quarantined: 0, failedBatches: 0 };
    let next = 0;
    // The floor: no HTTP, no validation, the same documents and batches in flight into a fresh collection with
    // analytics_events' indexes (resent batches hit its unique index, as they do on the route); timed before and
    // after the route and averaged, as the machine's load drifts meanwhile. Each run's collection goes afterwards.
    const eventIndexes = (await database.collection('analytics_events').listIndexes().toArray()).filter(
      (index) => index.name !== '_id_',
    );
    const floorSeconds = async () => {
      const floor = database.collection('analytics_floor');
      await floor.createIndexes(eventIndexes.map(({ key, name, unique }) => ({ key, name, unique })));
      let nextFloor = 0;
      const floorStart = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (nextFloor < queue.length) {
            const batch = queue[nextFloor++]!;
            await floor
              .insertMany(JSON.parse(batch.body).events, { ordered: false })
              .catch((err: { code?: number }) => {
                if (err.code !== 11000) throw err;
              });
          }
        }),
      );
      const took = (performance.now() - floorStart) / 1000;
      await floor.drop();
      return took;
    };
    const floorBefore = await floorSeconds();
    // The dev database counts each insert command once: how many the route's batches became on their way.
    const insertCommands = async () =>
      ((await client.db('admin').command({ serverStatus: 1 })) as { opcounters: { insert: number } }).opcounters.insert;
    const insertsBefore = await insertCommands();
    // CPU rather than wall time says what each side costs on a shared machine: the Worker's processes, the database's.
    const cpu = () => ({ stack: treeCpuSeconds(stack!.pid!) ?? NaN, db: treeCpuSeconds(db.child.pid!) ?? NaN });
    const cpuBefore = cpu();
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < queue.length) {
          const batch = queue[next++]!;
          const sent = performance.now();
          const { status, answer } = await postBatch(batch.body, batch.rider?.token ?? null);
          latencies.push(performance.now() - sent);
          if (status !== 200) totals.failedBatches! += 1;
          else for (const key of ['accepted', 'duplicates', 'quarantined']) totals[key]! += answer[key]!;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const cpuAfter = cpu();
    const routeInserts = (await insertCommands()) - insertsBefore;
    const [events, quarantine] = await Promise.all([
      database.collection('analytics_events').countDocuments({ platform: { $ne: 'server' } }),
      database.collection('analytics_quarantine').countDocuments(),
    ]);
    await database.collection('analytics_events').deleteMany({});
    await database.collection('analytics_quarantine').deleteMany({});
    const floorAfter = await floorSeconds();
    const floorMean = (floorBefore + floorAfter) / 2;
    latencies.sort((a, b) => a - b);
    const sent = queue.reduce((sum, batch) => sum + JSON.parse(batch.body).events.length, 0);
    process.stdout.write(
      `${sent} events in ${queue.length} batches of ${BATCH}, ${CONCURRENCY} clients: ${seconds.toFixed(1)} s, ` +
        `${(sent / seconds).toFixed(0)} events/s; batch p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms\n` +
        `answers: ${JSON.stringify(totals)}; stored: ${events} client events, ${quarantine} quarantined; ` +
        `${routeInserts} insert commands reached the database (${(queue.length / routeInserts).toFixed(2)} batches each)\n` +
        `CPU per batch: the Worker's processes ${((1000 * (cpuAfter.stack - cpuBefore.stack)) / queue.length).toFixed(2)} ms, ` +
        `the database ${((1000 * (cpuAfter.db - cpuBefore.db)) / queue.length).toFixed(2)} ms\n` +
        `bare insertMany of the same envelopes: ${(sent / floorBefore).toFixed(0)} events/s before the route, ${(sent / floorAfter).toFixed(0)} after; ` +
        `route / bare = ${(floorMean / seconds).toFixed(2)}\n`,
    );
  } finally {
    agent.destroy();
    if (stack?.pid) process.kill(-stack.pid, 'SIGTERM');
    await client.close();
    await stopDatabase(db.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
