/**
 * The events list on the local stack (scripts/dev.ts: wrangler dev + the dev database) over
 * 20,000 stored events spread a year either side of today: requests per second and p95 of
 * `GET /api/events` (default window, filters, a deep page, keyset paging), with `GET /api/health`
 * in the same run as the baseline each figure is compared with.
 * The dev database narrows only on equality (devdb/src/collection.ts `candidates`), so a date
 * window scans every stored event there; MongoDB walks the startAt index instead.
 * Run: npx tsx bench/events-list.ts   (EVENTS, SECONDS, CONCURRENCY, PORT override)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';
import { eventDedupeKey, eventSlug } from '../worker/events/catalog/identity.js';

const EVENTS = Number(process.env.EVENTS ?? 20_000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const PORT = Number(process.env.PORT ?? 8798);
const DAY_MS = 24 * 60 * 60 * 1000;

const CITIES: [string, string, number, number][] = [
  ['Austin', 'US', 30.27, -97.74],
  ['Los Angeles', 'US', 34.05, -118.25],
  ['Portland', 'US', 45.52, -122.67],
  ['Berlin', 'Germany', 52.52, 13.4],
  ['Barcelona', 'Spain', 41.39, 2.17],
  ['Tokyo', 'Japan', 35.68, 139.69],
];
const SPORTS = ['skateboarding', 'bmx', 'snowboarding', 'skiing', 'wakeboarding'];

function eventDoc(i: number, now: number) {
  const [city, country, lat, lng] = CITIES[i % CITIES.length]!;
  const title = `Bench Jam ${i}`;
  const startAt = new Date(Math.floor((now + (Math.random() * 2 - 1) * 365 * DAY_MS) / DAY_MS) * DAY_MS + DAY_MS / 2);
  const dedupeKey = eventDedupeKey({ title, startAt, city });
  return {
    _id: new ObjectId(),
    slug: eventSlug(title, dedupeKey),
    dedupeKey,
    title,
    description: 'A benchmark event with an ordinary description of a day of riding.',
    sports: [SPORTS[i % SPORTS.length]!],
    startAt,
    endAt: i % 10 === 0 ? new Date(startAt.getTime() + 2 * DAY_MS) : null,
    timeTba: i % 7 === 0,
    status: startAt.getTime() < now ? 'completed' : 'scheduled',
    isOnline: false,
    venue: { name: `${city} Park`, city, region: null, country, lat, lng },
    series: i % 5 === 0 ? 'Community Sessions' : null,
    participation: { registrationStatus: ['open', 'closed', 'upcoming'][i % 3] },
    createdAt: new Date(now),
    updatedAt: new Date(now),
    lastSeenAt: new Date(now),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type Figures = { rps: number; p95: number };

async function load(label: string, makePath: () => string, baseline?: Figures): Promise<Figures> {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        const res = await fetch(`http://127.0.0.1:${PORT}${makePath()}`);
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const figures = { rps: latencies.length / SECONDS, p95: percentile(latencies, 95) };
  const ratio = baseline ? `  ${((100 * figures.rps) / baseline.rps).toFixed(0).padStart(3)}% of health` : '';
  process.stdout.write(
    `${label.padEnd(44)} ${figures.rps.toFixed(1).padStart(7)} req/s  p50 ${percentile(latencies, 50).toFixed(0).padStart(5)} ms  p95 ${figures.p95.toFixed(0).padStart(5)} ms  (${latencies.length} requests, ${failures} not 200)${ratio}\n`,
  );
  return figures;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-bench-'));
  const db = await startDevDb({ port: 0, quiet: true });
  const uri = `${db.uri}/bench`;
  const client = new MongoClient(uri);
  let stack: ChildProcess | undefined;
  try {
    const database = client.db('bench');
    await applyIndexes(database);
    const now = Date.now();
    let start = performance.now();
    for (let i = 0; i < EVENTS; i += 1000) {
      const docs = Array.from({ length: Math.min(1000, EVENTS - i) }, (_, k) => eventDoc(i + k, now));
      await database.collection('events').insertMany(docs);
    }
    const inWindow = await database
      .collection('events')
      .countDocuments({ startAt: { $gte: new Date(now - DAY_MS), $lt: new Date(now + 30 * DAY_MS) } });
    process.stdout.write(
      `seeded ${EVENTS} events (about ${inWindow} in the default window) in ${(performance.now() - start).toFixed(0)} ms\n`,
    );

    stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      env: {
        ...process.env,
        MONGODB_URI: uri,
        PORT: String(PORT),
        DEVDB_DATA: dataDir,
        WRANGLER_STATE: path.join(dataDir, 'wrangler'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    start = performance.now();
    await new Promise<void>((resolve, reject) => {
      let log = '';
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (/Ready on http/.test(log)) resolve();
      };
      stack!.stdout!.on('data', onData);
      stack!.stderr!.on('data', onData);
      stack!.on('exit', (code) => reject(new Error(`local stack exited with ${code}:\n${log}`)));
    });
    process.stdout.write(
      `local stack ready in ${(performance.now() - start).toFixed(0)} ms; ${CONCURRENCY} clients, ${SECONDS} s each\n`,
    );

    const health = await load('GET /api/health (baseline: no query)', () => '/api/health');
    await load('GET /api/events (default: next 30 days)', () => '/api/events', health);
    await load('GET /api/events?cursor=200', () => '/api/events?cursor=200', health);
    await load('GET /api/events?sport=bmx&location=berlin', () => '/api/events?sport=bmx&location=berlin', health);
    await load('GET /api/events?q=jam%201&date=week', () => '/api/events?q=jam%201&date=week', health);
    await load(
      'GET /api/events?intent=community&date=<1 year>',
      () => {
        const from = new Date(now - 365 * DAY_MS).toISOString().slice(0, 10);
        const to = new Date(now + 365 * DAY_MS).toISOString().slice(0, 10);
        return `/api/events?intent=community&date=${from}..${to}`;
      },
      health,
    );
    await load('GET /api/events?paging=keyset', () => '/api/events?paging=keyset', health);
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
