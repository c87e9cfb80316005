/**
 * devdb through the official driver, in persistent mode as the dev stack runs it.
 * 1. crud: sequential awaited insertOne calls, then findOne by an indexed field.
 * 2. pipelines: the analytics dashboards (WPR, retention, quality) over EVENTS events of RIDERS riders, and the
 *    experiments results over EXPOSURES exposures (half riders, half installations) with as many actions, seeded
 *    as bench/analytics-dashboard.ts and bench/experiments.ts seed them; each service function is timed RUNS times
 *    (median wall and CPU seconds printed). Then, while the WPR pipeline runs, another client's pings: the longest round trip.
 *    PROFILE=<file.cpuprofile> writes a CPU profile of the timed runs (open it in Chrome DevTools or summarize it
 *    with `npx tsx bench/profile-summary.ts <file>`).
 * 3. slices (not run by default): EVENTS events stored straight into an in-memory store; the WPR pipeline run in one
 *    call and in slices (the overhead of pausing), and the cost of copying the collection to another thread as BSON,
 *    what evaluating a command in a worker thread would pay before starting (serialize here, deserialize there).
 * Run: npx tsx bench/devdb.ts   (SECTIONS=crud,pipelines,slices EVENTS=100000 RIDERS=2000 EXPOSURES=100000 RUNS=3)
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { type Db, MongoClient, ObjectId } from 'mongodb';
import { runPipeline, runPipelinePaced } from '../devdb/src/pipeline.js';
import { startDevDb } from '../devdb/src/server.js';
import { Store } from '../devdb/src/store.js';
import { type Doc, deserialize, serialize } from '../devdb/src/values.js';
import { DAY, eventDoc } from '../test/support/analytics-seed.js';
import { applyIndexes } from '../worker/data.js';
import { type AnalyticsEventName, COUNTED_FROM } from '../worker/growth/analytics/taxonomy.js';
import { MEANINGFUL_ACTIONS } from '../worker/growth/dashboard/meaningful.js';
import { wprPipeline } from '../worker/growth/dashboard/pipelines.js';
import { dataQuality, signupRetention, weeklyProgressingRiders } from '../worker/growth/dashboard/service.js';
import { experimentResults } from '../worker/growth/experiments/service.js';
import { createStore } from '../worker/platform/db/store.js';
import { seedExperimentUnits } from './experiment-units.js';

const INSERTS = 10_000;
const FINDS = 1_000;
const SECTIONS = (process.env.SECTIONS ?? 'crud,pipelines').split(',');
const EVENTS = Number(process.env.EVENTS ?? 100_000);
const RIDERS = Number(process.env.RIDERS ?? 2_000);
const EXPOSURES = Number(process.env.EXPOSURES ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 3);
const BATCH = 5_000;

function report(label: string, ops: number, ms: number): void {
  const perSec = Math.round((ops / ms) * 1000);
  process.stdout.write(
    `${label.padEnd(28)} ${String(ops).padStart(6)} ops  ${ms.toFixed(0).padStart(6)} ms  ${String(perSec).padStart(7)} ops/s\n`,
  );
}

async function crud(client: MongoClient): Promise<void> {
  const items = client.db('bench').collection('items');
  await items.createIndex({ sku: 1 }, { unique: true });

  let start = performance.now();
  for (let i = 0; i < INSERTS; i++) {
    await items.insertOne({ sku: `sku-${i}`, n: i, name: `item ${i}`, tags: ['a', 'b'], createdAt: new Date() });
  }
  report('insertOne (sequential)', INSERTS, performance.now() - start);

  start = performance.now();
  for (let i = 0; i < FINDS; i++) {
    const sku = `sku-${(i * 7919) % INSERTS}`;
    const doc = await items.findOne({ sku });
    if (!doc) throw new Error(`missing ${sku}`);
  }
  report('findOne by indexed field', FINDS, performance.now() - start);
}

/** As bench/analytics-dashboard.ts: signups over ten weeks (one in forty excluded), events over nine weeks. */
async function seedDashboard(db: Db, now: number): Promise<void> {
  const names = [...Object.keys(MEANINGFUL_ACTIONS), 'app_opened', 'trick_viewed', 'spot_viewed'];
  const platforms = ['ios', 'android', 'web'] as const;
  const riders = Array.from({ length: RIDERS }, (_, i) => {
    const createdAt = new Date(now - Math.random() * 70 * DAY);
    return {
      _id: new ObjectId(),
      name: `Seeded ${i}`,
      email: `seeded-${i}@bench.test`,
      role: null,
      ...(i % 40 === 0 ? { isBot: true } : {}),
      createdAt,
      updatedAt: createdAt,
    };
  });
  await db.collection('users').insertMany(riders);
  for (let done = 0; done < EVENTS; done += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, EVENTS - done) }, (_, i) => {
      const name = names[(done + i) % names.length]!;
      return eventDoc({
        name,
        at: new Date(now - Math.random() * 63 * DAY),
        userId: (done + i) % 10 === 0 ? null : riders[Math.floor(Math.random() * riders.length)]!._id,
        platform:
          COUNTED_FROM[name as AnalyticsEventName] === 'server' ? 'server' : platforms[(done + i) % platforms.length],
        envelope: {
          appVersion: '1.4.2',
          buildNumber: 140,
          sessionId: crypto.randomUUID(),
          ...((done + i) % 50 !== 1 ? { anonymousId: `install-${i % 500}` } : {}),
        },
      });
    });
    await db.collection('analytics_events').insertMany(batch);
  }
}

/** The experiment bench/experiments.ts times, over the same units. */
async function seedExperiment(db: Db, now: number): Promise<void> {
  await db.collection('experiments').insertOne({
    _id: new ObjectId(),
    key: 'bench_results',
    status: 'running',
    variants: [
      { key: 'control', weight: 50 },
      { key: 'treatment', weight: 50 },
    ],
    platforms: ['ios', 'android', 'web'],
    primaryMetric: 'progression',
    createdAt: new Date(now),
    updatedAt: new Date(now),
  });
  await seedExperimentUnits(db, EXPOSURES, now);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function pipelines(client: MongoClient, uri: string): Promise<void> {
  const now = Date.now();
  const dashboard = client.db('bench_dashboard');
  const experiment = client.db('bench_experiment');
  await applyIndexes(dashboard);
  await applyIndexes(experiment);
  const seedStart = performance.now();
  await seedDashboard(dashboard, now);
  await seedExperiment(experiment, now);
  console.log(
    `seeded ${EVENTS} events of ${RIDERS} riders; ${EXPOSURES} exposures and actions, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  const dashboardStore = createStore(() => dashboard);
  const experimentStore = createStore(() => experiment);
  const asOf = new Date(now);
  const timed: [string, () => Promise<string>][] = [
    [
      'dashboard wpr',
      async () => {
        const windows = await weeklyProgressingRiders(dashboardStore, 8, asOf);
        return `newest window ${windows.at(-1)?.riders} riders`;
      },
    ],
    ['dashboard retention', async () => `${(await signupRetention(dashboardStore, 8, asOf)).length} cohorts`],
    ['dashboard quality', async () => `${(await dataQuality(dashboardStore, 7, asOf)).events} events`],
    [
      'experiment results',
      async () => {
        const results = await experimentResults(experimentStore, 'bench_results');
        return results!.variants.map((v) => `${v.variant} ${v.convertedUnits}/${v.exposedUnits}`).join(', ');
      },
    ],
  ];
  const profiler = process.env.PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  for (const [label, run] of timed) {
    const seconds: number[] = [];
    const cpu: number[] = [];
    let summary = '';
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      summary = await run();
      seconds.push((performance.now() - started) / 1000);
      const used = process.cpuUsage(cpuBefore);
      cpu.push((used.user + used.system) / 1e6);
    }
    // CPU seconds of this process (server and driver): steadier than wall time on a machine shared with others.
    console.log(
      `${label.padEnd(20)} median ${median(seconds).toFixed(2)} s (${seconds.map((s) => s.toFixed(2)).join(', ')}), CPU median ${median(cpu).toFixed(2)} s (${cpu.map((s) => s.toFixed(2)).join(', ')}) ${summary}`,
    );
  }
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    fs.writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
    console.log(`CPU profile written to ${process.env.PROFILE}`);
  }

  // Another client's round trips while the WPR pipeline runs: what the driver's heartbeat waits for.
  const pinger = new MongoClient(uri);
  await pinger.connect();
  let running = true;
  const long = weeklyProgressingRiders(dashboardStore, 8, asOf).finally(() => {
    running = false;
  });
  const trips: number[] = [];
  while (running) {
    const started = performance.now();
    await pinger.db('admin').command({ ping: 1 });
    trips.push(performance.now() - started);
  }
  await long;
  await pinger.close();
  console.log(
    `pings during the wpr pipeline: ${trips.length}, longest ${Math.max(...trips).toFixed(0)} ms, median ${median(trips).toFixed(1)} ms`,
  );
}

/** Median CPU and wall milliseconds of `run`, RUNS times. */
async function measure(run: () => unknown): Promise<string> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await run();
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  return `median ${median(wall).toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU`;
}

async function slices(): Promise<void> {
  const store = new Store({});
  const db = store.ensureDb('slices');
  const now = Date.now();
  const riders = Array.from({ length: RIDERS }, (_, i) => {
    const createdAt = new Date(now - Math.random() * 70 * DAY);
    return db.ensureCollection('users').insert({ _id: new ObjectId(), name: `Seeded ${i}`, role: null, createdAt });
  });
  const names = [...Object.keys(MEANINGFUL_ACTIONS), 'app_opened'];
  const events = db.ensureCollection('analytics_events');
  for (let i = 0; i < EVENTS; i++) {
    const name = names[i % names.length]!;
    events.insert(
      eventDoc({
        name,
        at: new Date(now - Math.random() * 63 * DAY),
        userId: riders[Math.floor(Math.random() * riders.length)]!._id as ObjectId,
        platform: COUNTED_FROM[name as AnalyticsEventName] === 'server' ? 'server' : 'ios',
        envelope: {
          appVersion: '1.4.2',
          buildNumber: 140,
          sessionId: crypto.randomUUID(),
          anonymousId: `i-${i % 500}`,
        },
      }),
    );
  }
  const stages = wprPipeline(new Date(now - 8 * 7 * DAY), new Date(now)) as Doc[];
  const source = () => [...events.docs.values()];
  console.log(`slices: ${EVENTS} events stored in memory`);
  console.log(`  wpr pipeline in one call:  ${await measure(() => runPipeline(db, stages, source(), {}))}`);
  console.log(`  wpr pipeline in slices:    ${await measure(() => runPipelinePaced(db, stages, source(), {}))}`);
  console.log(
    `  copy to a thread as BSON:  ${await measure(() => source().map((doc) => deserialize(serialize(doc))))}`,
  );
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'devdb-bench-'));
  const server = await startDevDb({ port: 0, dataDir, quiet: true });
  const client = new MongoClient(server.uri);
  try {
    await client.connect();
    if (SECTIONS.includes('crud')) await crud(client);
    if (SECTIONS.includes('pipelines')) await pipelines(client, server.uri);
    if (SECTIONS.includes('slices')) await slices();
  } finally {
    await client.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
