/**
 * `POST /api/auth/refresh` on the local stack (scripts/dev.ts: wrangler dev + the dev database):
 * database round trips per refresh, counted by command name at a wire-protocol proxy between the
 * Worker and the dev database, and the latency p50/p95 of sequential refresh chains.
 * Run: npx tsx bench/auth-refresh.ts   (SECONDS, CONCURRENCY, PORT override)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';

const SECONDS = Number(process.env.SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const PORT = Number(process.env.PORT ?? 8799);
const OP_MSG = 2013;
const OP_QUERY = 2004;
// Connection upkeep, not the request's work.
const UPKEEP = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'saslStart', 'saslContinue']);

const counts = new Map<string, number>();

/** The command name of an OP_MSG: the first key of its body section (kind 0). */
function commandOf(message: Buffer): string | null {
  // The driver's first handshake on a new connection is a legacy OP_QUERY hello.
  if (message.readInt32LE(12) === OP_QUERY) return 'hello';
  if (message.readInt32LE(12) !== OP_MSG || message[20] !== 0) return null;
  const keyStart = 21 + 4 + 1;
  return message.toString('utf8', keyStart, message.indexOf(0, keyStart));
}

/** A TCP proxy to the dev database that counts every command the Worker sends. */
function countingProxy(target: { host: string; port: number }): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const name = commandOf(pending.subarray(0, length));
        if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
        pending = pending.subarray(length);
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const base = `http://127.0.0.1:${PORT}`;

async function optIn(i: number): Promise<string> {
  const res = await fetch(`${base}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-mode': 'refresh', 'user-agent': 'bench' },
    body: JSON.stringify({
      name: `Bench ${i}`,
      email: `bench-${i}-${Date.now()}@example.com`,
      password: 'correct horse',
    }),
  });
  if (res.status !== 201) throw new Error(`opt-in register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { refreshToken: string }).refreshToken;
}

async function refresh(token: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: token }),
  });
  if (res.status !== 200) throw new Error(`refresh: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { refreshToken: string }).refreshToken;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'refresh-bench-'));
  const db = await startDevDb({ port: 0, quiet: true });
  const devdbPort = Number(new URL(db.uri.replace('mongodb://', 'http://')).port);
  const proxy = await countingProxy({ host: '127.0.0.1', port: devdbPort });
  const proxyUri = `mongodb://127.0.0.1:${(proxy.address() as net.AddressInfo).port}/bench`;
  const client = new MongoClient(`${db.uri}/bench`);
  let stack: ChildProcess | undefined;
  try {
    await applyIndexes(client.db('bench'));
    stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      env: {
        ...process.env,
        MONGODB_URI: proxyUri,
        PORT: String(PORT),
        DEVDB_DATA: dataDir,
        WRANGLER_STATE: path.join(dataDir, 'wrangler'),
        // Every chain's rider registers from this machine's one address.
        REGISTRATIONS_PER_ADDRESS_PER_HOUR: String(CONCURRENCY + 1),
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
      stack!.stdout!.on('data', onData);
      stack!.stderr!.on('data', onData);
      stack!.on('exit', (code) => reject(new Error(`local stack exited with ${code}:\n${log}`)));
    });

    // Round trips: sequential refreshes, so every counted command belongs to one of them.
    let token = await optIn(0);
    for (let i = 0; i < 5; i++) token = await refresh(token); // warm-up: connections, isolates
    counts.clear();
    const N = 100;
    for (let i = 0; i < N; i++) token = await refresh(token);
    const work = [...counts].filter(([name]) => !UPKEEP.has(name));
    const perRefresh = work.reduce((sum, [, n]) => sum + n, 0) / N;
    process.stdout.write(
      `database commands per refresh: ${perRefresh.toFixed(2)} (${work.map(([name, n]) => `${name} ${(n / N).toFixed(2)}`).join(', ')}); connection upkeep: ${
        [...counts]
          .filter(([name]) => UPKEEP.has(name))
          .map(([name, n]) => `${name} ${n}`)
          .join(', ') || 'none'
      } over ${N} refreshes\n`,
    );

    // Baseline: the same stack answering with no database work.
    const health: number[] = [];
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      health.push(performance.now() - start);
    }
    health.sort((a, b) => a - b);
    process.stdout.write(`GET /api/health baseline: p50 ${percentile(health, 50).toFixed(1)} ms (200 sequential)\n`);

    // Latency: CONCURRENCY chains of sequential refreshes for SECONDS.
    const chains = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => optIn(i + 1)));
    const latencies: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(
      chains.map(async (first) => {
        let current = first;
        while (performance.now() < until) {
          const start = performance.now();
          current = await refresh(current);
          latencies.push(performance.now() - start);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    process.stdout.write(
      `POST /api/auth/refresh: ${latencies.length} in ${SECONDS} s over ${CONCURRENCY} chains, ${(latencies.length / SECONDS).toFixed(1)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms\n`,
    );
  } finally {
    if (stack?.pid) process.kill(-stack.pid, 'SIGTERM');
    await client.close();
    proxy.close();
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
