/**
 * Where the Worker's CPU goes on REST requests: a CPU profile of the local stack's isolate (the Worker and its
 * Durable Objects) taken through wrangler's inspector (Chrome DevTools protocol) while REQUESTS requests of each
 * route run at CONCURRENCY, then the profile summed by function (self time) and by module, top rows printed.
 * bench/scale measured up to 30–46 ms of stack CPU per REST request (an upper bound); this says what it is.
 * Run: npx tsx bench/worker-profile.ts   (REQUESTS=300, CONCURRENCY=4, PORT=8805, INSPECTOR_PORT=9239, TOP=25;
 * ROUTES=analytics profiles anonymous batches of 100 to POST /api/analytics/events instead of the rider routes)
 * Writes the raw profile to $PROFILE_OUT (default /tmp/worker.cpuprofile) for DevTools.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevDb } from '../devdb/src/server.js';
import { envelope } from './analytics-envelopes.js';
import { printProfile, profileIsolate } from './isolate-profile.js';
import { type BenchRoute, riderRoutes, runLoad, startLocalStack } from './local-stack.js';

const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const PORT = Number(process.env.PORT ?? 8805);
const INSPECTOR_PORT = Number(process.env.INSPECTOR_PORT ?? 9239);
const TOP = Number(process.env.TOP ?? 25);
const PROFILE_OUT = process.env.PROFILE_OUT ?? '/tmp/worker.cpuprofile';

async function main() {
  const devdb = await startDevDb({ port: 0, quiet: true });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-profile-'));
  const stack = await startLocalStack({
    mongodbUri: `${devdb.uri}/bench_worker_profile`,
    port: PORT,
    stateDir,
    env: { INSPECTOR_PORT: String(INSPECTOR_PORT), VOICE_PORT: process.env.VOICE_PORT ?? '8897' },
  });
  try {
    let sent = 0;
    const analytics: BenchRoute = [
      'POST /api/analytics/events (100 events)',
      () =>
        fetch(`${stack.url}/api/analytics/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ events: Array.from({ length: 100 }, () => envelope(sent++, null)) }),
        }),
    ];
    const routes = process.env.ROUTES === 'analytics' ? [analytics] : await riderRoutes(stack.url, 'profile');
    // Warm-up: compiled code and held connections, as in steady operation.
    for (const [, send] of routes) await runLoad(40, CONCURRENCY, send);

    const profiling = await profileIsolate(INSPECTOR_PORT, PROFILE_OUT);
    const started = performance.now();
    for (const [route, send] of routes) {
      const figures = await runLoad(REQUESTS, CONCURRENCY, send);
      console.log(
        `${route}: p50 ${figures.p50.toFixed(1)} ms, ${figures.rps.toFixed(0)} req/s, ${figures.failures} failures`,
      );
    }
    const wallMs = performance.now() - started;
    const profile = await profiling.stop();
    const requests = REQUESTS * routes.length;
    console.log(`\n${requests} requests in ${(wallMs / 1000).toFixed(1)} s`);
    printProfile(profile, requests, 'request', TOP, PROFILE_OUT);
  } finally {
    await stack.stop();
    await devdb.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
