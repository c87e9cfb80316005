/**
 * A direct message end to end, the project beside a conventional Node server in the same run: CONVERSATIONS
 * concurrent two-rider conversations, the sender POSTs `/api/conversations/{id}/messages` (with its own socket's
 * `x-socket-id`) and the recipient's socket.io-client receives `message:created`. The project runs in workerd with no
 * proxy (the direct runner, scripts/workerd-direct.ts); the conventional server is node:http + socket.io + the mongodb
 * driver doing the same stores and delivery (bench/conversation-node-server.ts). Both use one dev database, run as a
 * process of its own, in one database (the project's indexes applied), each on conversations of its own.
 * Per server: p50/p95 from POST start to receipt, messages/s, CPU per message of the server's processes (workerd and
 * its runner; the Node server) from /proc/<pid>/stat, and database calls per message (the dev database's
 * opcounters). The dev database's CPU per message is shown apart for each: it serves both and is counted for neither.
 * RUNS rounds alternate the two servers on the same warm processes; the figures printed are the medians.
 * Run: npx tsx bench/conversation-messages.ts   (CONVERSATIONS=20, MESSAGES=30 per conversation per run, RUNS=3,
 * WARM_UP=MESSAGES)
 * WORKER_PROFILE=file.cpuprofile profiles the Worker's isolate over one more project run and prints its top rows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient, ObjectId } from 'mongodb';
import { io, type Socket } from 'socket.io-client';
import { startRealtimeStack } from '../test/support/realtime-stack.js';
import { applyIndexes } from '../worker/data.js';
import { databaseName } from '../worker/platform/db/database-name.js';
import { claimsFor, signSessionToken } from '../worker/platform/tokens/token.js';
import { printProfile, profileIsolate } from './isolate-profile.js';
import { percentile } from './local-stack.js';
import { treeCpuSeconds } from './process-cpu.js';

const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 20);
const MESSAGES = Number(process.env.MESSAGES ?? 30);
const RUNS = Number(process.env.RUNS ?? 3);
/**
 * Messages per conversation sent first on each server and left out: code not yet compiled, pools not yet grown.
 * A whole run's worth: with 5, the Node server's per-message CPU still halved over the next runs as V8 optimised it.
 */
const WARM_UP = Number(process.env.WARM_UP ?? MESSAGES);

/** Starts a child process and resolves once a line of its output matches `ready`, with the match. */
function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let said = '';
    const onLine = (line: string) => {
      said += `${line}\n`;
      const match = ready.exec(line);
      if (match) resolve({ child, match });
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}:\n${said}`)));
  });
}

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
  serverCpuMs: number;
  databaseCpuMs: number;
  databaseCalls: number;
  failures: number;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'conversation-bench-db-'));
  const devdb = await startChild(
    ['devdb/src/cli.ts', '--port', '0', '--data', dataDir],
    /devdb ready (mongodb:\/\/\S+)/,
  );
  const devdbUri = devdb.match[1]!.replace(/\/$/, '');
  console.log('Starting the project (workerd, direct) and the conventional Node server…');
  const stack = await startRealtimeStack({
    direct: true,
    logLevel: 'warn',
    // Production's Analytics Engine writes are in-process; the local stand-in would add a call per point.
    metrics: 'discard',
    routeDatabase: async () => devdbUri,
  });
  const client = new MongoClient(stack.databaseUri);
  const db = client.db(databaseName(stack.databaseUri, undefined));
  const node = await startChild(
    ['bench/conversation-node-server.ts', stack.databaseUri, stack.jwtSecret],
    /listening (\d+)/,
  );
  const nodeUrl = `http://127.0.0.1:${node.match[1]}`;
  const sockets: Socket[] = [];
  try {
    await applyIndexes(db);
    const seed = async (): Promise<{ conversation: ObjectId; tokens: [string, string] }[]> => {
      const riders = Array.from({ length: CONVERSATIONS * 2 }, (_, i) => ({
        _id: new ObjectId(),
        name: `Bench Rider ${i}`,
        email: `bench-${new ObjectId().toHexString()}@bench.test`,
        role: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      }));
      await db.collection('users').insertMany(riders);
      const now = new Date();
      const docs = Array.from({ length: CONVERSATIONS }, (_, i) => {
        const participantIds = [riders[2 * i]!._id, riders[2 * i + 1]!._id];
        return {
          _id: new ObjectId(),
          participantIds,
          participantKey: participantIds
            .map((id) => id.toHexString())
            .sort()
            .join('-'),
          lastActivityAt: now,
          lastMessageId: null,
          readMarkers: participantIds.map((userId) => ({ userId, messageId: null, readAt: now })),
          createdAt: now,
          updatedAt: now,
        };
      });
      await db.collection('conversations').insertMany(docs);
      const tokens = await Promise.all(riders.map((rider) => signSessionToken(claimsFor(rider), stack.jwtSecret)));
      return docs.map((doc, i) => ({ conversation: doc._id, tokens: [tokens[2 * i]!, tokens[2 * i + 1]!] }));
    };
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
        socket.once('connect_error', reject);
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
    const servers = [
      { name: 'project', url: stack.url, pid: stack.pid, pairs: await pairsOn(stack.url) },
      { name: 'node', url: nodeUrl, pid: node.child.pid!, pairs: await pairsOn(nodeUrl) },
    ];
    const opcount = async () => {
      const status = await client.db('admin').command({ serverStatus: 1 });
      return Object.values(status.opcounters as Record<string, number>).reduce((sum, n) => sum + n, 0);
    };

    /** Every pair sends `count` messages one after another, a→b; each timed from POST start to b's receipt. */
    const exchange = async (server: (typeof servers)[number], count: number) => {
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
      for (const server of servers) {
        // Let the previous server's background work (pushes, publishes) finish before counting.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const [cpu0, db0, ops0] = [treeCpuSeconds(server.pid)!, treeCpuSeconds(devdb.child.pid!)!, await opcount()];
        const began = performance.now();
        const { latencies, failures } = await exchange(server, MESSAGES);
        const seconds = (performance.now() - began) / 1000;
        await new Promise((resolve) => setTimeout(resolve, 300));
        const [cpu1, db1, ops1] = [treeCpuSeconds(server.pid)!, treeCpuSeconds(devdb.child.pid!)!, await opcount()];
        const sent = latencies.length + failures;
        latencies.sort((x, y) => x - y);
        const figures: Figures = {
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          perSecond: latencies.length / seconds,
          serverCpuMs: ((cpu1 - cpu0) * 1000) / sent,
          databaseCpuMs: ((db1 - db0) * 1000) / sent,
          // The two serverStatus reads are left out.
          databaseCalls: (ops1 - ops0 - 1) / sent,
          failures,
        };
        runs.get(server.name)!.push(figures);
        console.log(
          `run ${run + 1} ${server.name.padEnd(7)} p50 ${figures.p50.toFixed(1)} ms  p95 ${figures.p95.toFixed(1)} ms  ${figures.perSecond.toFixed(0)} msg/s  server CPU ${figures.serverCpuMs.toFixed(2)} ms/msg  devdb CPU ${figures.databaseCpuMs.toFixed(2)} ms/msg  db calls ${figures.databaseCalls.toFixed(2)}/msg  failures ${failures}`,
        );
      }
    }
    const profileFile = process.env.WORKER_PROFILE;
    if (profileFile) {
      const profiling = await profileIsolate(stack.inspectorPort!, profileFile);
      await exchange(servers[0]!, MESSAGES);
      printProfile(await profiling.stop(), CONVERSATIONS * MESSAGES, 'message', 30, profileFile, stack.sourceMap());
    }
    const medians = (name: string) => {
      const list = runs.get(name)!;
      const of = (key: keyof Figures) => median(list.map((figures) => figures[key]));
      return {
        p50: of('p50'),
        p95: of('p95'),
        perSecond: of('perSecond'),
        serverCpuMs: of('serverCpuMs'),
        databaseCpuMs: of('databaseCpuMs'),
        databaseCalls: of('databaseCalls'),
        failures: of('failures'),
      };
    };
    const [ours, theirs] = [medians('project'), medians('node')];
    const row = (label: string, a: number, b: number, digits = 1) =>
      `| ${label} | ${a.toFixed(digits)} | ${b.toFixed(digits)} | ${(a / b).toFixed(2)}× |`;
    console.log(
      `\n${CONVERSATIONS} concurrent conversations, ${MESSAGES} messages each per run, medians of ${RUNS} runs (load ${(await import('node:os')).loadavg()[0]!.toFixed(2)})`,
    );
    console.log('| figure | project | node (socket.io) | project / node |\n|---|---|---|---|');
    console.log(row('p50 POST → receipt (ms)', ours.p50, theirs.p50));
    console.log(row('p95 POST → receipt (ms)', ours.p95, theirs.p95));
    console.log(row('messages/s', ours.perSecond, theirs.perSecond, 0));
    console.log(row('server CPU per message (ms)', ours.serverCpuMs, theirs.serverCpuMs, 2));
    console.log(row('dev database CPU per message (ms)', ours.databaseCpuMs, theirs.databaseCpuMs, 2));
    console.log(row('database calls per message', ours.databaseCalls, theirs.databaseCalls, 2));
    console.log(`failures (median): project ${ours.failures}, node ${theirs.failures}`);
  } finally {
    for (const socket of sockets) socket.disconnect();
    await client.close();
    await stack.stop();
    node.child.kill('SIGTERM');
    devdb.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
