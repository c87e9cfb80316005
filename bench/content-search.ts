/**
 * Spot and stay search on the local stack (scripts/dev.ts: wrangler dev + the dev database)
 * over 10,000 spots holding 50,000 stays: requests per second and latency percentiles of
 * `GET /api/spots?near=` and `GET /api/stays/search`, from a client on the same machine.
 * Run: npx tsx bench/content-search.ts   (SPOTS, STAYS_PER_SPOT, SECONDS, CONCURRENCY override)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { foldKey } from '../worker/riding/stays/normalise.js';

const SPOTS = Number(process.env.SPOTS ?? 10_000);
const STAYS_PER_SPOT = Number(process.env.STAYS_PER_SPOT ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const PORT = Number(process.env.PORT ?? 8797);

// Spots cluster around ten cities, as real spots do, so a near search finds a realistic crowd.
const CITIES: [string, string, number, number][] = [
  ['Los Angeles', 'US', 34.05, -118.25],
  ['New York', 'US', 40.71, -74.0],
  ['Berlin', 'DE', 52.52, 13.4],
  ['Barcelona', 'ES', 41.39, 2.17],
  ['London', 'GB', 51.51, -0.13],
  ['Tokyo', 'JP', 35.68, 139.69],
  ['Sydney', 'AU', -33.87, 151.21],
  ['Sao Paulo', 'BR', -23.55, -46.63],
  ['Vancouver', 'CA', 49.28, -123.12],
  ['Paris', 'FR', 48.86, 2.35],
];
const TYPES = ['hotel', 'hostel', 'airbnb', 'campground', 'lodge', 'other'];

function spotDoc(i: number) {
  const [city, country, lat, lng] = CITIES[i % CITIES.length]!;
  const now = new Date();
  const at = [lng + (Math.random() - 0.5) * 0.8, lat + (Math.random() - 0.5) * 0.6];
  return {
    _id: new ObjectId(),
    name: `Spot ${i}`,
    sports: ['skateboarding'],
    city,
    country,
    location: { type: 'Point', coordinates: at },
    createdAt: now,
    updatedAt: now,
    stays: Array.from({ length: STAYS_PER_SPOT }, (_, s) => ({
      _id: new ObjectId().toHexString(),
      name: `Stay ${i}-${s}`,
      nameKey: foldKey(`Stay ${i}-${s}`),
      type: TYPES[s % TYPES.length],
      priceLevel: 1 + (s % 4),
      rating: Math.round(Math.random() * 50) / 10,
      distanceKm: Math.round(Math.random() * 300),
      sourceConfidence: Math.round(Math.random() * 100) / 100,
      city,
      country,
      createdAt: now,
      updatedAt: now,
    })),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function load(label: string, makePath: () => string): Promise<void> {
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
  const rps = latencies.length / SECONDS;
  process.stdout.write(
    `${label.padEnd(44)} ${rps.toFixed(1).padStart(7)} req/s  p50 ${percentile(latencies, 50).toFixed(0).padStart(5)} ms  p95 ${percentile(latencies, 95).toFixed(0).padStart(5)} ms  (${latencies.length} requests, ${failures} not 200)\n`,
  );
}

const randomCity = () => CITIES[Math.floor(Math.random() * CITIES.length)]!;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-bench-'));
  const db = await startDevDb({ port: 0, quiet: true });
  const uri = `${db.uri}/bench`;
  const client = new MongoClient(uri);
  let stack: ChildProcess | undefined;
  try {
    const spots = client.db('bench').collection('spots');
    let start = performance.now();
    for (let i = 0; i < SPOTS; i += 1000) {
      await spots.insertMany(Array.from({ length: Math.min(1000, SPOTS - i) }, (_, k) => spotDoc(i + k)) as never[]);
    }
    process.stdout.write(
      `seeded ${SPOTS} spots, ${SPOTS * STAYS_PER_SPOT} stays in ${(performance.now() - start).toFixed(0)} ms\n`,
    );

    // The local stack against that database: scripts/dev.ts applies the indexes and starts wrangler dev.
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

    await load('GET /api/spots?near=&radiusKm=25', () => {
      const [, , lat, lng] = randomCity();
      return `/api/spots?near=${lat},${lng}&radiusKm=25`;
    });
    await load('GET /api/stays/search?near=&radiusKm=25', () => {
      const [, , lat, lng] = randomCity();
      return `/api/stays/search?near=${lat},${lng}&radiusKm=25`;
    });
    await load(
      'GET /api/stays/search?city=&type=',
      () => `/api/stays/search?city=${encodeURIComponent(randomCity()[0])}&type=hotel`,
    );
    await load('GET /api/health (baseline: no query)', () => '/api/health');
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
