/**
 * What one HTTP request costs workerd on the project beside the minimal Worker (bench/minimal-worker/), by how far
 * it gets: `unknown` asks for an /api path no route serves (the layers every API request passes: the request log
 * line and its scope, the answer headers, the body limit, the request's store, routing, the 404), `no-token` sends a
 * message without a token (those layers, the route's match and its access check's refusal), and `send` sends a
 * message for real to a conversation nobody is connected to (the whole send but the socket frames: the access check
 * with the write in its database call, the validation, the directory reads, the push decision). The minimal Worker
 * answers `unknown` and `send` too. Requests go CONCURRENCY at a time, N per round, ROUNDS rounds with the servers
 * in turn; figures are the medians of workerd's CPU per request from /proc (the local runner's apart, not counted).
 * Fewer moving parts than bench/conversation-messages.ts, so a layer's cost of tens of microseconds stands out;
 * BASELINE=<checkout>,<checkout> adds those checkouts' Workers to the same rounds (each with `node_modules` and
 * `.dev.vars`): a checkout with one layer taken out shows what that layer costs.
 * Run: npx tsx bench/request-layers.ts   (N=3000, ROUNDS=5, CONCURRENCY=20, KINDS=unknown,no-token,send)
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { freePort } from '../test/e2e/processes.js';
import { type RealtimeStack, startRealtimeStack } from '../test/support/realtime-stack.js';
import { applyIndexes } from '../worker/data.js';
import { databaseName } from '../worker/platform/db/database-name.js';
import { startChild } from './child-processes.js';
import { isWorkerd, processSnapshot, treeCpu } from './process-cpu.js';
import { seedConversations } from './seed-conversations.js';

const N = Number(process.env.N ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 20);
const ALL_KINDS = ['unknown', 'no-token', 'send'] as const;
type Kind = (typeof ALL_KINDS)[number];
const KINDS = (process.env.KINDS?.split(',') ?? ALL_KINDS) as Kind[];
const BASELINES = (process.env.BASELINE ?? '').split(',').filter(Boolean);

interface Server {
  name: string;
  url: string;
  pid: number;
  /** The kinds this server answers: the minimal Worker has no access check of its own to refuse with. */
  kinds: readonly Kind[];
}

interface Sender {
  conversationId: string;
  token: string;
}

/** A request of `kind` from the sender `from`, which must be answered `status`. */
function requestOf(kind: Kind, from: Sender, n: number): { path: string; init: RequestInit; status: number } {
  const send = (headers: Record<string, string>) => ({
    path: `/api/conversations/${from.conversationId}/messages`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ text: `see you at the bowl ${n}` }),
    },
  });
  if (kind === 'unknown') return { path: '/api/no-such-route', init: {}, status: 404 };
  if (kind === 'no-token') return { ...send({}), status: 401 };
  return { ...send({ 'x-auth-token': from.token, 'x-socket-id': 'no-such.socket' }), status: 201 };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'request-layers-db-'));
  const devdb = await startChild(
    ['devdb/src/cli.ts', '--port', '0', '--data', dataDir],
    /devdb ready (mongodb:\/\/\S+)/,
  );
  const devdbUri = devdb.match[1]!.replace(/\/$/, '');
  const options = { logLevel: 'warn' as const, metrics: 'discard' as const, direct: true, noInspector: true };
  const stacks: RealtimeStack[] = [];
  const children: ChildProcess[] = [devdb.child];
  try {
    const stack = await startRealtimeStack({ ...options, routeDatabase: async () => devdbUri });
    stacks.push(stack);
    const onOneDatabase = { ...options, vars: { MONGODB_URI: stack.databaseUri } };
    const baselines = [];
    for (const checkout of BASELINES) {
      const started = await startRealtimeStack({ ...onOneDatabase, checkout });
      stacks.push(started);
      baselines.push({ name: basename(checkout), stack: started });
    }
    const minimal = await startChild(
      [
        'bench/minimal-worker/serve.ts',
        ...['--ip', '127.0.0.1', '--port', String(await freePort()), '--log-level', 'warn', '--metrics', 'discard'],
        ...['--var', `MONGODB_URI:${stack.databaseUri}`, '--var', `JWT_SECRET:${stack.jwtSecret}`],
      ],
      /Ready on (http:\/\/\S+)/,
    );
    children.push(minimal.child);
    const servers: Server[] = [
      { name: 'project', url: stack.url, pid: stack.pid, kinds: ALL_KINDS },
      ...baselines.map(({ name, stack }) => ({ name, url: stack.url, pid: stack.pid, kinds: ALL_KINDS })),
      { name: 'minimal', url: minimal.match[1]!, pid: minimal.child.pid!, kinds: ['unknown', 'send'] },
    ];

    // One conversation per concurrent sender.
    const client = new MongoClient(stack.databaseUri);
    await applyIndexes(client.db(databaseName(stack.databaseUri, undefined)));
    const seeded = await seedConversations(
      client.db(databaseName(stack.databaseUri, undefined)),
      CONCURRENCY,
      stack.jwtSecret,
    );
    await client.close();
    const senders: Sender[] = seeded.map(({ conversation, tokens }) => ({
      conversationId: conversation.toHexString(),
      token: tokens[0],
    }));

    /** N requests of `kind`, CONCURRENCY at a time; answers workerd's CPU per request in microseconds. */
    const load = async (server: Server, kind: Kind, count: number) => {
      const before = treeCpu(processSnapshot(), server.pid, isWorkerd).part;
      let sent = 0;
      await Promise.all(
        senders.map(async (sender) => {
          while (sent < count) {
            const { path, init, status } = requestOf(kind, sender, sent++);
            const response = await fetch(`${server.url}${path}`, init);
            const body = await response.text();
            if (response.status !== status) {
              throw new Error(`${server.name} answered ${kind} ${response.status}, not ${status}: ${body}`);
            }
          }
        }),
      );
      return ((treeCpu(processSnapshot(), server.pid, isWorkerd).part - before) * 1e6) / count;
    };

    const figures = new Map<string, number[]>();
    for (const server of servers)
      for (const kind of KINDS) if (server.kinds.includes(kind)) await load(server, kind, N / 10);
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of KINDS) {
        // The servers in turn, starting one later each round.
        const order = servers.map((_, i) => servers[(i + round) % servers.length]!);
        for (const server of order) {
          if (!server.kinds.includes(kind)) continue;
          const key = `${kind}\t${server.name}`;
          figures.set(key, [...(figures.get(key) ?? []), await load(server, kind, N)]);
        }
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`workerd CPU per request (µs): medians of ${ROUNDS} rounds of ${N}, ${CONCURRENCY} at a time`);
    console.log('| request | server | µs | range | ÷ minimal |\n|---|---|---|---|---|');
    for (const kind of KINDS) {
      const floor = figures.get(`${kind}\tminimal`);
      for (const server of servers) {
        const xs = figures.get(`${kind}\t${server.name}`);
        if (!xs) continue;
        const ratio = floor ? `${(median(xs) / median(floor)).toFixed(2)}×` : '';
        const range = `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
        console.log(`| ${kind} | ${server.name} | ${median(xs).toFixed(0)} | ${range} | ${ratio} |`);
      }
    }
  } finally {
    for (const stack of stacks) await stack.stop();
    for (const child of children) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
