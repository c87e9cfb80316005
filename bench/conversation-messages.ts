/**
 * A direct message end to end on three servers in the same rounds: the project, the minimal Worker on the same shape
 * (bench/minimal-worker/: the floor the platform itself sets) and a conventional Node server. CONVERSATIONS concurrent
 * two-rider conversations; the sender POSTs `/api/conversations/{id}/messages` (with its own socket's `x-socket-id`)
 * and the recipient's socket.io-client receives `message:created`. Both Workers run in workerd with no proxy, each
 * in a workerd of its own (scripts/workerd-direct.ts, bench/minimal-worker/serve.ts), so neither's load lands in the
 * other's process; the Node server is node:http + socket.io + the mongodb driver doing the same stores and delivery
 * (bench/conversation-node-server.ts). All use one dev database, run as a process of its own, in one database (the
 * project's indexes applied), each on conversations of its own, with riders seeded the same way and one token each
 * that every server accepts (the project's signing).
 * Per server: p50/p95 from POST start to receipt, messages/s, CPU per message from /proc/<pid>/stat (each entry read
 * once per sample): for a Worker, workerd's apart from its local runner's (the Node process that started workerd and
 * relays its output, which production does not have), and database calls per message (the dev database's
 * opcounters). The dev database's CPU per message is shown apart for each: it serves all and is counted for none.
 * RUNS rounds on the same warm processes, the servers' order rotating each round; the figures are the medians, the
 * ratios those of the medians.
 * Run: npx tsx bench/conversation-messages.ts   (CONVERSATIONS=20, MESSAGES=30 per conversation per run, RUNS=5,
 * WARM_UP=MESSAGES)
 * WRANGLER=1 adds the project under `wrangler dev` three times: as wrangler starts it, with its local trace collector
 * off (X_LOCAL_OBSERVABILITY=false), and with that and no line per request (--log-level warn): what the local runner
 * costs, beside the direct runner in the same rounds.
 * BASELINE=<another checkout> adds that checkout's Worker (an earlier commit, `npm ci` done there), served by its own
 * direct runner, to the same rounds: before and after a change with the machine's drift between invocations left out.
 * WORKER_PROFILE=file.cpuprofile profiles the project's isolate over one more run and prints its top rows;
 * MINIMAL_PROFILE=file.cpuprofile the minimal Worker's the same way.
 * PROJECT_VARS=DB_POOL_SIZE=40,DB_GATEWAYS=1 gives the project's Worker (not the BASELINE's) those settings: with a
 * BASELINE of the same commit, what a setting changes, in the same rounds.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { io, type Socket } from 'socket.io-client';
import { freePort } from '../test/e2e/processes.js';
import { type RealtimeStack, type RealtimeStackOptions, startRealtimeStack } from '../test/support/realtime-stack.js';
import { applyIndexes } from '../worker/data.js';
import { databaseName } from '../worker/platform/db/database-name.js';
import { startChild, stopChild } from './child-processes.js';
import { printProfile, profileIsolate } from './isolate-profile.js';
import { percentile } from './local-stack.js';
import { isWorkerd, processSnapshot, treeCpu } from './process-cpu.js';
import { seedConversations } from './seed-conversations.js';

const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 20);
const MESSAGES = Number(process.env.MESSAGES ?? 30);
const RUNS = Number(process.env.RUNS ?? 5);
/**
 * Messages per conversation sent first on each server and left out: code not yet compiled, pools not yet grown.
 * A whole run's worth: with 5, the Node server's per-message CPU still halved over the next runs as V8 optimised it.
 */
const WARM_UP = Number(process.env.WARM_UP ?? MESSAGES);
const WRANGLER = process.env.WRANGLER === '1';
/** Another checkout of the project (an earlier commit, dependencies installed), served beside it in the same rounds. */
const BASELINE = process.env.BASELINE;
/**
 * Either Worker profiled: both then run with workerd's inspector, as the rounds compare them; otherwise neither does,
 * as an isolate open to an inspector is not the one production runs.
 */
const PROFILED = Boolean(process.env.WORKER_PROFILE || process.env.MINIMAL_PROFILE);
/** Settings of the project's Worker only (`NAME=value,NAME=value`): a BASELINE of the same commit then shows their effect. */
const PROJECT_VARS = Object.fromEntries(
  (process.env.PROJECT_VARS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`PROJECT_VARS: "${pair}" is not NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
);

interface Pair {
  id: string;
  tokenA: string;
  a: Socket;
  b: Socket;
}

interface Figures {
  p50: number;
  p95: number;
  perSecond: number;
  /** workerd's CPU for a Worker, the whole process for the Node server. */
  serverCpuMs: number;
  /** The local runner above workerd (wrangler, the direct runner); none for the Node server. */
  runnerCpuMs: number;
  databaseCpuMs: number;
  databaseCalls: number;
  failures: number;
}

interface Server {
  name: string;
  url: string;
  pid: number;
  pairs: Pair[];
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const range = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'conversation-bench-db-'));
  const devdb = await startChild(
    ['devdb/src/cli.ts', '--port', '0', '--data', dataDir],
    /devdb ready (mongodb:\/\/\S+)/,
  );
  const devdbUri = devdb.match[1]!.replace(/\/$/, '');
  console.log('Starting the project (workerd, direct), the minimal Worker and the conventional Node server…');
  const stackOptions = {
    logLevel: 'warn' as const,
    // Production's Analytics Engine writes are in-process; the local stand-in would add a call per point.
    metrics: 'discard' as const,
    routeDatabase: async () => devdbUri,
  };
  const stack = await startRealtimeStack({ ...stackOptions, direct: true, noInspector: !PROFILED, vars: PROJECT_VARS });
  const stacks: RealtimeStack[] = [stack];
  const client = new MongoClient(stack.databaseUri);
  const db = client.db(databaseName(stack.databaseUri, undefined));
  const children: ChildProcess[] = [devdb.child];
  const sockets: Socket[] = [];
  try {
    const node = await startChild(
      ['bench/conversation-node-server.ts', stack.databaseUri, stack.jwtSecret],
      /listening (\d+)/,
    );
    children.push(node.child);
    const minimalPort = await freePort();
    const minimalInspector = PROFILED ? ['--inspector-port', String(await freePort())] : [];
    const minimal = await startChild(
      [
        'bench/minimal-worker/serve.ts',
        ...['--ip', '127.0.0.1', '--port', String(minimalPort), '--log-level', 'warn', '--metrics', 'discard'],
        ...minimalInspector,
        ...['--var', `MONGODB_URI:${stack.databaseUri}`, '--var', `JWT_SECRET:${stack.jwtSecret}`],
      ],
      /Ready on (http:\/\/\S+)/,
    );
    children.push(minimal.child);
    // The project as `wrangler dev` serves it (its request line printed, as `npm run dev` has it), with its local trace
    // collector off, and with neither: what the local runner costs, beside the direct runner in the same rounds.
    const onOneDatabase = { ...stackOptions, vars: { MONGODB_URI: stack.databaseUri } };
    const wranglers = WRANGLER
      ? [
          { name: 'wrangler', logLevel: 'info', localObservability: true },
          { name: 'wrangler-no-traces', logLevel: 'info', localObservability: false },
          { name: 'wrangler-warn-no-traces', logLevel: 'warn', localObservability: false },
        ].map(async ({ name, ...options }) => ({
          name,
          stack: await startRealtimeStack({ ...onOneDatabase, ...(options as RealtimeStackOptions) }),
        }))
      : [];
    const wranglerStacks = [];
    for (const starting of wranglers) wranglerStacks.push(await starting);
    if (BASELINE) {
      const baseline = { ...onOneDatabase, direct: true, noInspector: !PROFILED, checkout: BASELINE };
      wranglerStacks.push({ name: 'baseline', stack: await startRealtimeStack(baseline) });
    }
    stacks.push(...wranglerStacks.map(({ stack }) => stack));
    await applyIndexes(db);
    const seed = () => seedConversations(db, CONVERSATIONS, stack.jwtSecret);
    const join = async (url: string, token: string) => {
      const socket = io(`${url}/messages`, {
        transports: ['websocket'],
        auth: { token },
        forceNew: true,
        reconnection: false,
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', (error) => reject(new Error(`${url}: ${error.message}`, { cause: error })));
      });
      return socket;
    };
    const pairsOn = async (url: string): Promise<Pair[]> =>
      Promise.all(
        (await seed()).map(async ({ conversation, tokens }) => ({
          id: conversation.toHexString(),
          tokenA: tokens[0],
          a: await join(url, tokens[0]),
          b: await join(url, tokens[1]),
        })),
      );
    const serverOf = async (name: string, url: string, pid: number): Promise<Server> => ({
      name,
      url,
      pid,
      pairs: await pairsOn(url),
    });
    const nodeUrl = `http://127.0.0.1:${node.match[1]}`;
    const servers = [
      await serverOf('project', stack.url, stack.pid),
      await serverOf('minimal', minimal.match[1]!, minimal.child.pid!),
      await serverOf('node', nodeUrl, node.child.pid!),
      ...(await Promise.all(wranglerStacks.map(({ name, stack }) => serverOf(name, stack.url, stack.pid)))),
    ];
    const opcount = async () => {
      const status = await client.db('admin').command({ serverStatus: 1 });
      return Object.values(status.opcounters as Record<string, number>).reduce((sum, n) => sum + n, 0);
    };
    /** The server's workerd (or whole process) and runner CPU seconds, and the dev database's, from one snapshot. */
    const cpuOf = (server: Server) => {
      const snapshot = processSnapshot();
      const { part, rest } = treeCpu(snapshot, server.pid, server.name === 'node' ? () => true : isWorkerd);
      const database = treeCpu(snapshot, devdb.child.pid!);
      return { server: part, runner: rest, database: database.part + database.rest };
    };

    /** Every pair sends `count` messages one after another, a→b; each timed from POST start to b's receipt. */
    const exchange = async (server: Server, count: number) => {
      const latencies: number[] = [];
      let failures = 0;
      await Promise.all(
        server.pairs.map(async (pair) => {
          for (let i = 0; i < count; i++) {
            const received = new Promise<void>((resolve) => pair.b.once('message:created', () => resolve()));
            const start = performance.now();
            const res = await fetch(`${server.url}/api/conversations/${pair.id}/messages`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-auth-token': pair.tokenA, 'x-socket-id': pair.a.id! },
              body: JSON.stringify({ text: `bench message ${i}` }),
            });
            await res.arrayBuffer();
            if (res.status !== 201) {
              failures++;
              continue;
            }
            await received;
            latencies.push(performance.now() - start);
          }
        }),
      );
      return { latencies, failures };
    };

    for (const server of servers) await exchange(server, WARM_UP);
    const runs = new Map<string, Figures[]>(servers.map((server) => [server.name, []]));
    for (let run = 0; run < RUNS; run++) {
      // Each round starts with the next server: none is always measured first, or always after the same one.
      const order = servers.map((_, i) => servers[(i + run) % servers.length]!);
      for (const server of order) {
        // Let the previous server's background work (pushes, publishes) finish before counting.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const [cpu0, ops0] = [cpuOf(server), await opcount()];
        const began = performance.now();
        const { latencies, failures } = await exchange(server, MESSAGES);
        const seconds = (performance.now() - began) / 1000;
        await new Promise((resolve) => setTimeout(resolve, 300));
        const [cpu1, ops1] = [cpuOf(server), await opcount()];
        const sent = latencies.length + failures;
        latencies.sort((x, y) => x - y);
        const perMessage = (seconds: number) => (seconds * 1000) / sent;
        const figures: Figures = {
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          perSecond: latencies.length / seconds,
          serverCpuMs: perMessage(cpu1.server - cpu0.server),
          runnerCpuMs: perMessage(cpu1.runner - cpu0.runner),
          databaseCpuMs: perMessage(cpu1.database - cpu0.database),
          // The two serverStatus reads are left out.
          databaseCalls: (ops1 - ops0 - 1) / sent,
          failures,
        };
        runs.get(server.name)!.push(figures);
        console.log(
          `run ${run + 1} ${server.name.padEnd(18)} p50 ${figures.p50.toFixed(1)} ms  p95 ${figures.p95.toFixed(1)} ms  ${figures.perSecond.toFixed(0)} msg/s  CPU ${figures.serverCpuMs.toFixed(2)} ms/msg (runner ${figures.runnerCpuMs.toFixed(2)})  devdb ${figures.databaseCpuMs.toFixed(2)} ms/msg  db calls ${figures.databaseCalls.toFixed(2)}/msg  failures ${failures}`,
        );
      }
    }
    const profileFile = process.env.WORKER_PROFILE;
    if (profileFile) {
      const profiling = await profileIsolate(stack.inspectorPort!, profileFile);
      await exchange(servers[0]!, MESSAGES);
      printProfile(await profiling.stop(), CONVERSATIONS * MESSAGES, 'message', 30, profileFile, stack.sourceMap());
    }
    const minimalProfile = process.env.MINIMAL_PROFILE;
    if (minimalProfile) {
      const profiling = await profileIsolate(Number(minimalInspector[1]), minimalProfile);
      await exchange(servers[1]!, MESSAGES);
      const bundle = /Bundle in (\S+)/.exec(minimal.said())?.[1];
      printProfile(
        await profiling.stop(),
        CONVERSATIONS * MESSAGES,
        'message',
        30,
        minimalProfile,
        bundle && `${bundle}/index.js.map`,
      );
    }
    report(servers, runs);
  } finally {
    for (const socket of sockets) socket.disconnect();
    await client.close();
    for (const one of stacks) await one.stop();
    // The dev database writes its folder until it has exited: removed before, the folder was found not empty.
    await Promise.all(children.map(stopChild));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The medians side by side, the ratios of the medians, and each ratio's range over the rounds. */
function report(servers: Server[], runs: Map<string, Figures[]>) {
  const names = servers.map((server) => server.name);
  const of = (name: string, key: keyof Figures) => median(runs.get(name)!.map((figures) => figures[key]));
  const perRound = (a: string, b: string, key: keyof Figures) =>
    runs.get(a)!.map((figures, i) => figures[key] / runs.get(b)![i]![key]);
  const pairs: [string, string][] = [
    ['project', 'minimal'],
    ['project', 'node'],
    ['minimal', 'node'],
    ...names.filter((name) => name.startsWith('wrangler')).map((name): [string, string] => [name, 'project']),
    ...(names.includes('baseline')
      ? [['project', 'baseline'] as [string, string], ['baseline', 'minimal'] as [string, string]]
      : []),
  ];
  console.log(
    `\n${CONVERSATIONS} concurrent conversations, ${MESSAGES} messages each per run, medians of ${RUNS} rounds (load ${loadavg()[0]!.toFixed(2)})`,
  );
  console.log(
    `| figure | ${names.join(' | ')} | ${pairs.map(([a, b]) => `${a} ÷ ${b}`).join(' | ')} |\n|---|${names.map(() => '---|').join('')}${pairs.map(() => '---|').join('')}`,
  );
  const rows: [string, keyof Figures, number][] = [
    ['p50 POST → receipt (ms)', 'p50', 1],
    ['p95 POST → receipt (ms)', 'p95', 1],
    ['messages/s', 'perSecond', 0],
    ['CPU per message: workerd / the Node server (ms)', 'serverCpuMs', 2],
    ['CPU per message: local runner, not in production (ms)', 'runnerCpuMs', 2],
    ['dev database CPU per message (ms)', 'databaseCpuMs', 2],
    ['database calls per message', 'databaseCalls', 2],
  ];
  for (const [label, key, digits] of rows) {
    const ratios =
      key === 'runnerCpuMs'
        ? pairs.map(() => '')
        : pairs.map(([a, b]) => `${(of(a, key) / of(b, key)).toFixed(2)}× (${range(perRound(a, b, key), 2)})`);
    console.log(
      `| ${label} | ${names.map((name) => of(name, key).toFixed(digits)).join(' | ')} | ${ratios.join(' | ')} |`,
    );
  }
  // The ratio moves with the machine's speed while the difference holds: both, so runs on different days compare.
  const gaps = runs.get('project')!.map((figures, i) => figures.serverCpuMs - runs.get('minimal')![i]!.serverCpuMs);
  console.log(
    `CPU per message, project − minimal: ${(of('project', 'serverCpuMs') - of('minimal', 'serverCpuMs')).toFixed(2)} ms (${range(gaps, 2)} over the rounds)`,
  );
  console.log(`failures (median): ${names.map((name) => `${name} ${of(name, 'failures')}`).join(', ')}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
