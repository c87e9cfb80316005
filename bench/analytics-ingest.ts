/**
 * Analytics ingestion on the local stack (scripts/dev.ts: wrangler dev + the dev database):
 * 100,000 events sent as 1,000 batches of 100 to `POST /api/analytics/events` by CONCURRENCY
 * clients; prints events per second, batch latency p50/p95, and what the store then holds.
 * A fifth of the batches come from signed-in riders (their events carry userId), every 50th
 * event is invalid (quarantined), and the last RETRIES batches are resent whole (duplicates).
 * Beside it, the floor: the same envelopes inserted as they are with a bare `insertMany` per batch, CONCURRENCY in
 * flight, through the driver into a collection of the same database, timed before and after the route, and the
 * route's rate as a share of their mean.
 * Run: npx tsx bench/analytics-ingest.ts   (EVENTS, BATCH, CONCURRENCY, RIDERS, RETRIES, PORT override)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';
import { envelope } from './analytics-envelopes.js';

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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Ready on http/.test(log)) resolve();
    };
    stack.stdout!.on('data', onData);
    stack.stderr!.on('data', onData);
    stack.on('exit', (code) => reject(new Error(`local stack exited with ${code}:\n${log}`)));
  });
  return stack;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-'));
  const db = await startDevDb({ port: 0, quiet: true });
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
    // The floor: no HTTP, no validation, no unique index, the same documents and batches in flight; timed before
    // and after the route (into collections of their own) and averaged, as the machine's load drifts meanwhile.
    const floorSeconds = async (collection: string) => {
      const floor = database.collection(collection);
      let nextFloor = 0;
      const floorStart = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (nextFloor < queue.length) {
            const batch = queue[nextFloor++]!;
            await floor.insertMany(JSON.parse(batch.body).events, { ordered: false });
          }
        }),
      );
      return (performance.now() - floorStart) / 1000;
    };
    const floorBefore = await floorSeconds('analytics_floor_before');
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < queue.length) {
          const batch = queue[next++]!;
          const sent = performance.now();
          const res = await fetch(`${base}/api/analytics/events`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(batch.rider ? { 'x-auth-token': batch.rider.token } : {}),
            },
            body: batch.body,
          });
          const answer = (await res.json()) as Record<string, number>;
          latencies.push(performance.now() - sent);
          if (res.status !== 200) totals.failedBatches! += 1;
          else for (const key of ['accepted', 'duplicates', 'quarantined']) totals[key]! += answer[key]!;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const floorAfter = await floorSeconds('analytics_floor_after');
    const floorMean = (floorBefore + floorAfter) / 2;
    latencies.sort((a, b) => a - b);
    const sent = queue.reduce((sum, batch) => sum + JSON.parse(batch.body).events.length, 0);
    const [events, quarantine] = await Promise.all([
      database.collection('analytics_events').countDocuments({ platform: { $ne: 'server' } }),
      database.collection('analytics_quarantine').countDocuments(),
    ]);
    process.stdout.write(
      `${sent} events in ${queue.length} batches of ${BATCH}, ${CONCURRENCY} clients: ${seconds.toFixed(1)} s, ` +
        `${(sent / seconds).toFixed(0)} events/s; batch p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms\n` +
        `answers: ${JSON.stringify(totals)}; stored: ${events} client events, ${quarantine} quarantined\n` +
        `bare insertMany of the same envelopes: ${(sent / floorBefore).toFixed(0)} events/s before the route, ${(sent / floorAfter).toFixed(0)} after; ` +
        `route / bare = ${(floorMean / seconds).toFixed(2)}\n`,
    );
  } finally {
    if (stack?.pid) process.kill(-stack.pid, 'SIGTERM');
    await client.close();
    await db.close();
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
