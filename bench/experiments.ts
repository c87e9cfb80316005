/**
 * Experiments on the local stack (scripts/dev.ts: wrangler dev + the dev database), started with bench/local-stack.ts:
 * 1. `GET /api/experiments/assignments` with three running experiments: requests per second and latency, anonymous
 *    (a new installation id each request) and signed in (one rider, the exposure lookup included), beside
 *    `GET /api/users/me` on the same stack for scale.
 * 2. Results over EXPOSURES exposures (half riders, half installations) and as many meaningful actions, seeded
 *    straight into the database: the seconds `GET /api/admin/experiments/:key/results` takes, and the service function
 *    run straight against the database (the pipeline's cost on the dev database, which evaluates it in slices while
 *    serving other connections: devdb/README.md, "Long aggregations").
 * Run: npx tsx bench/experiments.ts   (REQUESTS=2000, CONCURRENCY=8, EXPOSURES=100000, RUNS=3, PORT=8801 override)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';
import { experimentResults } from '../worker/growth/experiments/service.js';
import { createStore } from '../worker/platform/db/store.js';
import { seedExperimentUnits } from './experiment-units.js';
import { runLoad, startLocalStack } from './local-stack.js';

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const EXPOSURES = Number(process.env.EXPOSURES ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 3);
const PORT = Number(process.env.PORT ?? 8801);

const devdb = await startDevDb({ port: 0, quiet: true });
const uri = `${devdb.uri}/bench_experiments`;
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-experiments-'));
const stack = await startLocalStack({ mongodbUri: uri, port: PORT, stateDir });
const client = new MongoClient(uri);
try {
  const db = client.db();
  await applyIndexes(db);
  const api = (p: string, init: RequestInit = {}) => fetch(`${stack.url}/api${p}`, init);
  const json = (method: string, token: string, body: unknown): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify(body),
  });
  const registerRider = async (label: string) => {
    const res = await api('/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: label, email: `${label}-${Date.now()}@bench.test`, password: 'bench-password' }),
    });
    return (await res.json()) as { token: string; user: { _id: string } };
  };
  const admin = await registerRider('bench-admin');
  await db.collection('users').updateOne({ _id: new ObjectId(admin.user._id) }, { $set: { role: 'admin' } });
  const rider = await registerRider('bench-rider');

  const variants = [
    { key: 'control', weight: 50 },
    { key: 'treatment', weight: 50 },
  ];
  for (const key of ['bench_a', 'bench_b', 'bench_c', 'bench_results']) {
    const res = await api(
      '/admin/experiments',
      json('POST', admin.token, {
        key,
        variants,
        platforms: ['ios', 'android', 'web'],
        primaryMetric: 'progression',
        status: key === 'bench_results' ? 'draft' : 'running',
      }),
    );
    if (res.status !== 201) throw new Error(`creating ${key}: ${res.status} ${await res.text()}`);
  }

  console.log(`assignments: ${REQUESTS} requests, ${CONCURRENCY} at a time, 3 running experiments`);
  let n = 0;
  const anonymous = await runLoad(REQUESTS, CONCURRENCY, () =>
    api(`/experiments/assignments?installationId=bench-install-${n++}&platform=ios`),
  );
  // The same stack's cost of a comparable signed-in read (token check plus one find), for scale on this machine.
  const baseline = await runLoad(REQUESTS, CONCURRENCY, () =>
    api('/users/me', { headers: { 'x-auth-token': rider.token } }),
  );
  const signedIn = await runLoad(REQUESTS, CONCURRENCY, () =>
    api(`/experiments/assignments?installationId=bench-device-${n++}&platform=ios`, {
      headers: { 'x-auth-token': rider.token },
    }),
  );
  for (const [label, figures] of [
    ['anonymous', anonymous],
    ['signed in', signedIn],
    ['baseline GET /api/users/me', baseline],
  ] as const) {
    console.log(
      `  ${label}: ${figures.rps.toFixed(0)} requests/s, p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, ${figures.failures} failures`,
    );
  }

  // Results: units exposed over two weeks; a rider unit converts with a progression action about a third of the time.
  const now = Date.now();
  const seedStart = performance.now();
  const riderUnits = Math.floor(EXPOSURES / 2);
  await seedExperimentUnits(db, EXPOSURES, now);
  await db.collection('experiments').updateOne({ key: 'bench_results' }, { $set: { status: 'running' } });
  console.log(
    `seeded ${EXPOSURES} exposures (${riderUnits} riders), ${EXPOSURES} events in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const store = createStore(() => db);
  const direct: number[] = [];
  let summary = '';
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const results = await experimentResults(store, 'bench_results');
    direct.push((performance.now() - started) / 1000);
    summary = results!.variants.map((v) => `${v.variant} ${v.convertedUnits}/${v.exposedUnits}`).join(', ');
  }
  console.log(`results straight on the database: ${direct.map((s) => s.toFixed(2)).join(' s, ')} s (${summary})`);

  const routed: number[] = [];
  let answer = '';
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const res = await api('/admin/experiments/bench_results/results', { headers: { 'x-auth-token': admin.token } });
    const body = (await res.json()) as { sampleRatio?: { pValue: number | null }; error?: string };
    routed.push((performance.now() - started) / 1000);
    answer = res.status === 200 ? `200, SRM p ${body.sampleRatio?.pValue?.toFixed(3)}` : `${res.status} ${body.error}`;
  }
  console.log(`GET /api/admin/experiments/:key/results: ${routed.map((s) => s.toFixed(2)).join(' s, ')} s (${answer})`);
} finally {
  await client.close();
  await stack.stop();
  await devdb.close();
}
