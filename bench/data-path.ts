/**
 * The data path (docs/data-path.md): the same routes in DB_ACCESS=direct (a MongoClient per request)
 * and DB_ACCESS=gateway (clients held in Durable Objects), on the local stack with the dev database
 * simulating a hosted cluster: every reply LATENCY_MS late, each new connection's first reply
 * HANDSHAKE_MS later still. Per route, mode and concurrency: p50, p95, requests/s, connections
 * created per 1,000 requests after a warm-up (the warm-up's own connections beside it) and database operations
 * per request (serverStatus of the dev database). GET /api/health, one round trip (a ping), is the floor: `/health`
 * is a row's p50 over its p50 at the same concurrency.
 * Run: npx tsx bench/data-path.ts   (REQUESTS=1000, LATENCY_MS=20, HANDSHAKE_MS=150, PORT=8799, MODES=direct,gateway,
 * ROUTES=all or a comma-separated list of route names such as 'GET /api/users/me')
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { type BenchRoute, type LoadFigures, riderRoutes, runLoad, startLocalStack } from './local-stack.js';

const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 20);
const HANDSHAKE_MS = Number(process.env.HANDSHAKE_MS ?? 150);
const PORT = Number(process.env.PORT ?? 8799);
const MODES = (process.env.MODES ?? 'direct,gateway').split(',');
const ROUTES = process.env.ROUTES && process.env.ROUTES !== 'all' ? process.env.ROUTES.split(',') : undefined;
const CONCURRENCIES = [1, 20];
/** Warm-up requests per row: this many rounds of the row's concurrency. */
const WARM_UP_ROUNDS = 5;

type Counts = { created: number; ops: number };

async function serverCounts(watcher: MongoClient): Promise<Counts> {
  const status = await watcher.db('admin').command({ serverStatus: 1 });
  const ops = Object.values(status.opcounters as Record<string, number>).reduce((sum, n) => sum + n, 0);
  // The watcher's own serverStatus is one command each time: left out.
  return { created: status.connections.totalCreated, ops };
}

async function main(): Promise<void> {
  const devdb = await startDevDb({ port: 0, quiet: true });
  const uri = `${devdb.uri}/bench_data_path`;
  const watcher = new MongoClient(devdb.uri, { maxPoolSize: 1, serverMonitoringMode: 'poll' });
  const rows: string[] = [];
  process.stdout.write(
    `dev database: ${LATENCY_MS} ms per reply, ${HANDSHAKE_MS} ms more on each new connection's first; ${REQUESTS} requests per row\n`,
  );
  try {
    for (const mode of MODES) {
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), `data-path-${mode}-`));
      // Setup (indexes, demo data) on a fast network; the measurement on the slow one.
      devdb.setNetwork({ latencyMs: 0, handshakeMs: 0 });
      const stack = await startLocalStack({ mongodbUri: uri, port: PORT, stateDir, env: { DB_ACCESS: mode } });
      try {
        // GET /api/health answers after one database round trip (a ping): the floor the other rows compare to.
        const oneRoundTrip: BenchRoute = ['GET /api/health', () => fetch(`${stack.url}/api/health`)];
        const floorP50 = new Map<number, number>();
        const routes = [oneRoundTrip, ...(await riderRoutes(stack.url, `bench-${mode}`))];
        devdb.setNetwork({ latencyMs: LATENCY_MS, handshakeMs: HANDSHAKE_MS });
        for (const [route, send] of routes) {
          if (ROUTES && !ROUTES.includes(route)) continue;
          for (const concurrency of CONCURRENCIES) {
            // Warm-up at the row's concurrency, not timed: a gateway's pool grows once to what that concurrency
            // needs (its bound: DB_GATEWAYS x DB_POOL_SIZE) and is then reused; the connections it opened are
            // shown apart, so conn/1k is the steady state. Direct mode opens a client per request either way.
            const cold = await serverCounts(watcher);
            await runLoad(concurrency * WARM_UP_ROUNDS, concurrency, send);
            const before = await serverCounts(watcher);
            const warmUpCreated = before.created - cold.created;
            const figures: LoadFigures = await runLoad(REQUESTS, concurrency, send);
            const after = await serverCounts(watcher);
            const perThousand = ((after.created - before.created) * 1000) / REQUESTS;
            const opsPerRequest = (after.ops - before.ops - 1) / REQUESTS;
            if (route === oneRoundTrip[0]) floorP50.set(concurrency, figures.p50);
            const ratio = figures.p50 / (floorP50.get(concurrency) ?? Number.NaN);
            const row = `| ${mode.padEnd(7)} | ${route.padEnd(17)} | ${String(concurrency).padStart(2)} | ${figures.p50.toFixed(0).padStart(5)} | ${ratio.toFixed(2).padStart(5)} | ${figures.p95.toFixed(0).padStart(5)} | ${figures.rps.toFixed(1).padStart(6)} | ${perThousand.toFixed(1).padStart(7)} | ${String(warmUpCreated).padStart(7)} | ${opsPerRequest.toFixed(2).padStart(5)} | ${figures.failures} |`;
            rows.push(row);
            process.stdout.write(`${row}\n`);
          }
        }
      } finally {
        await stack.stop();
        fs.rmSync(stateDir, { recursive: true, force: true });
      }
    }
  } finally {
    await watcher.close();
    await devdb.close();
  }
  process.stdout.write(
    `\n| mode    | route             |  c |   p50 | /health |   p95 |  req/s | conn/1k | warm-up | ops/r | errors |\n|---|---|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
