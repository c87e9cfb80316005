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
import WebSocket from 'ws';
import { startDevDb } from '../devdb/src/server.js';
import { envelope } from './analytics-envelopes.js';
import { type BenchRoute, riderRoutes, runLoad, startLocalStack } from './local-stack.js';

const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const PORT = Number(process.env.PORT ?? 8805);
const INSPECTOR_PORT = Number(process.env.INSPECTOR_PORT ?? 9239);
const TOP = Number(process.env.TOP ?? 25);
const PROFILE_OUT = process.env.PROFILE_OUT ?? '/tmp/worker.cpuprofile';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A minimal DevTools-protocol client: one request at a time, answered by id. */
async function inspector(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let next = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    send: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        const id = next++;
        pending.set(id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Self time per key, from the samples (each sample's time delta goes to the node it landed on). */
function selfTimes(profile: Profile, key: (node: ProfileNode) => string): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const k = key(node);
    totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const moduleOf = (url: string) => {
  if (!url) return '(native / idle)';
  const nodeModules = url.lastIndexOf('node_modules/');
  if (nodeModules !== -1)
    return url
      .slice(nodeModules + 13)
      .split('/')
      .slice(0, 2)
      .join('/');
  return url.replace(/^.*\/work\/[^/]+\//, '').replace(/^file:\/\//, '');
};

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

    const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const devtools = await inspector(targets[0]!.webSocketDebuggerUrl);
    await devtools.send('Profiler.enable');
    await devtools.send('Profiler.setSamplingInterval', { interval: 200 });
    await devtools.send('Profiler.start');
    const started = performance.now();
    for (const [route, send] of routes) {
      const figures = await runLoad(REQUESTS, CONCURRENCY, send);
      console.log(
        `${route}: p50 ${figures.p50.toFixed(1)} ms, ${figures.rps.toFixed(0)} req/s, ${figures.failures} failures`,
      );
    }
    const wallMs = performance.now() - started;
    const { profile } = await devtools.send<{ profile: Profile }>('Profiler.stop');
    devtools.close();
    fs.writeFileSync(PROFILE_OUT, JSON.stringify(profile));

    const requests = REQUESTS * routes.length;
    const all = selfTimes(profile, () => 'all');
    const idle = selfTimes(profile, (n) => n.callFrame.functionName).find(([name]) => name === '(idle)')?.[1] ?? 0;
    const busy = (all[0]?.[1] ?? 0) - idle;
    console.log(
      `\n${requests} requests in ${(wallMs / 1000).toFixed(1)} s; the isolate was busy ${busy.toFixed(0)} ms: ${(busy / requests).toFixed(2)} ms of JavaScript per request (samples every 200 µs; raw profile: ${PROFILE_OUT})`,
    );
    const print = (title: string, rows: [string, number][]) => {
      console.log(`\n${title}`);
      for (const [name, ms] of rows.filter(([name]) => name !== '(idle)').slice(0, TOP))
        console.log(
          `${(ms / requests).toFixed(3).padStart(8)} ms/request ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${name}`,
        );
    };
    print(
      'self time by module',
      selfTimes(profile, (n) => (n.callFrame.functionName === '(idle)' ? '(idle)' : moduleOf(n.callFrame.url))),
    );
    print(
      'self time by function',
      selfTimes(profile, (n) =>
        n.callFrame.functionName === '(idle)'
          ? '(idle)'
          : `${n.callFrame.functionName || '(anonymous)'}  ${moduleOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`,
      ),
    );
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
