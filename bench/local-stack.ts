// Shared by the benches that drive the local stack (scripts/dev.ts): start it against a given
// database, wait until wrangler serves, stop it with its children, and summarize latencies.
import { type ChildProcess, spawn } from 'node:child_process';

export interface LocalStack {
  url: string;
  /** The stack's process group (scripts/dev.ts leads it; wrangler and workerd are in it). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts `scripts/dev.ts` against `mongodbUri` with extra environment; resolves once the Worker is ready. */
export async function startLocalStack(options: {
  mongodbUri: string;
  port: number;
  stateDir: string;
  env?: Record<string, string>;
}): Promise<LocalStack> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    env: {
      ...process.env,
      ...options.env,
      MONGODB_URI: options.mongodbUri,
      PORT: String(options.port),
      // Its own DevTools port, so two benches (or a bench and `npm run dev`) never race for wrangler's 9229.
      INSPECTOR_PORT: options.env?.INSPECTOR_PORT ?? String(options.port + 1000),
      DEVDB_DATA: options.stateDir,
      WRANGLER_STATE: `${options.stateDir}/wrangler`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      // STACK_LOG=1 shows the stack's own output (the Worker's console), for a bench that misbehaves.
      if (process.env.STACK_LOG) process.stderr.write(chunk);
      log += chunk.toString();
      if (/Ready on http/.test(log)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`local stack exited with ${code}:\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${options.port}`,
    pid: child.pid!,
    stop: async () => {
      if (!child.pid || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * p50 and p95 of `requests` sequential requests after five to warm up, each answered 200 and read whole, printed
 * on one line under `label` with what `note` says of the last answer's body.
 */
export async function sequentialLatency(
  label: string,
  requests: number,
  send: (i: number) => Promise<Response>,
  note: (lastBody: string) => string = () => '',
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await (await send(i)).arrayBuffer();
  const times: number[] = [];
  let lastBody = '';
  for (let i = 0; i < requests; i++) {
    const began = performance.now();
    const res = await send(i);
    lastBody = await res.text();
    if (res.status !== 200) throw new Error(`${label} answered ${res.status}`);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  const figures = { p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(
    `${label.padEnd(52)} p50 ${figures.p50.toFixed(1).padStart(7)} ms  p95 ${figures.p95.toFixed(1).padStart(7)} ms  (${requests} sequential${note(lastBody)})`,
  );
  return figures;
}

export interface LoadFigures {
  p50: number;
  p95: number;
  rps: number;
  failures: number;
}

/** Sends `total` requests from `concurrency` clients; latency of each from send to body read. */
export async function runLoad(total: number, concurrency: number, send: () => Promise<Response>): Promise<LoadFigures> {
  const latencies: number[] = [];
  let failures = 0;
  let started = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started += 1;
        const start = performance.now();
        const res = await send();
        await res.arrayBuffer();
        if (res.status >= 400) failures += 1;
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - begin) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), rps: latencies.length / seconds, failures };
}

export type BenchRoute = [name: string, send: () => Promise<Response>];

/**
 * Registers a fresh rider on the stack and returns the data path's three routes as that rider: a read of the
 * account, a feed page, a post. The benches that time or profile REST requests share them.
 */
export async function riderRoutes(stackUrl: string, label: string): Promise<BenchRoute[]> {
  const api = (p: string, init: RequestInit = {}) => fetch(`${stackUrl}/api${p}`, init);
  const registered = await api('/users', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Rider',
      email: `${label}-${Date.now()}@rider.test`,
      password: 'bench-password',
    }),
  });
  const { token } = (await registered.json()) as { token: string };
  const auth = { 'x-auth-token': token };
  return [
    ['GET /api/users/me', () => api('/users/me', { headers: auth })],
    ['GET /api/feed', () => api('/feed', { headers: auth })],
    [
      'POST /api/feed',
      () =>
        api('/feed', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'a bench post' }),
        }),
    ],
  ];
}
