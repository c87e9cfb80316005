/**
 * The real-time layer on the local stack (wrangler dev + the dev database), each figure beside the
 * same measured on a bare `ws` broadcast server in the same run, as a ratio:
 *  1. one post fanned out to FEED_CLIENTS connected /feed clients: time until the last receives it,
 *     p50 and p99 per client (from the moment the post is sent);
 *  2. CONVERSATIONS concurrent two-rider conversations exchanging ROUNDS messages each way:
 *     messages per second and p99 delivery latency.
 * Run: npx tsx bench/realtime-fanout.ts   (FEED_CLIENTS, POSTS, WARM_UP_POSTS, CONVERSATIONS, ROUNDS override)
 * DIRECT=1 serves the Worker through Miniflare's own server instead of `wrangler dev`, whose proxy (a second
 * workerd relaying every frame) production has no counterpart of (scripts/workerd-direct.ts).
 * CPU_PROFILE=file.cpuprofile profiles this process (the clients and the dev database) while our posts fan out;
 * WORKER_PROFILE=file.cpuprofile profiles the Worker's isolate while our conversations exchange, printing its top rows;
 * FEED_PROFILE=file.cpuprofile the same while our posts fan out (warm-up included).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { MongoClient, ObjectId } from 'mongodb';
import { io, type Socket } from 'socket.io-client';
import WebSocket, { WebSocketServer } from 'ws';
import { startRealtimeStack } from '../test/support/realtime-stack.js';
import { databaseName } from '../worker/platform/db/database-name.js';
import { claimsFor, signSessionToken } from '../worker/platform/tokens/token.js';
import { printProfile, profileIsolate } from './isolate-profile.js';
import { treeCpuSeconds } from './process-cpu.js';

const FEED_CLIENTS = Number(process.env.FEED_CLIENTS ?? 1000);
const POSTS = Number(process.env.POSTS ?? 5);
/**
 * Posts sent first on each side and left out of the figures (their last receipt is printed, and the p99 counting
 * them): through a fresh stack the first post ran 3–10× slower than later ones and the next two still slower
 * (code paths not yet compiled, the database connection's first writes), and a single slow post decides the p99.
 */
const WARM_UP_POSTS = Number(process.env.WARM_UP_POSTS ?? 3);
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DIRECT = process.env.DIRECT === '1';

/** Runs the tasks 20 at a time: setting up is not what is measured. */
async function inBatches<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += 20)
    results.push(...(await Promise.all(tasks.slice(i, i + 20).map((task) => task()))));
  return results;
}

// NaN when nothing arrived at all, so the report still prints.
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (ours: number, bare: number) => `${(ours / bare).toFixed(1)}×`;

// A message not delivered within this long is counted as lost instead of stalling the run.
const LOST_AFTER_MS = 10_000;
let lost = 0;
let refused = 0;
const within = (arrival: Promise<unknown>) =>
  Promise.race([
    arrival.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), LOST_AFTER_MS)),
  ]);

interface Exchange {
  perSecond: number;
  p99: number;
  /** Median time until the sender's REST call answered. */
  answered: number;
}

/** Runs `rounds` broadcasts; each resolves with every client's latency from `send` to receipt. */
async function fanOut(
  clients: number,
  rounds: number,
  subscribe: (onEvent: (at: number) => void) => void,
  send: () => Promise<void>,
) {
  const latencies: number[] = [];
  const lasts: number[] = [];
  const firsts: number[] = [];
  const answers: number[] = [];
  const warmUps: number[] = [];
  const spans: string[] = [];
  // Every receipt, the warm-up's too: the p99 as a cold stack's first riders would see it.
  const withWarmUp: number[] = [];
  let cpuFrom = process.cpuUsage();
  for (let round = -WARM_UP_POSTS; round < rounds; round++) {
    const measured = round >= 0;
    if (round === 0) cpuFrom = process.cpuUsage();
    let received = 0;
    let start = 0;
    const done = new Promise<number>((resolve) => {
      subscribe((at) => {
        withWarmUp.push(at - start);
        if (measured) latencies.push(at - start);
        if (++received === 1 && measured) firsts.push(at - start);
        if (received === clients) resolve(at - start);
      });
    });
    start = performance.now();
    await send();
    if (measured) answers.push(performance.now() - start);
    const last = await done;
    (measured ? lasts : warmUps).push(last);
    if (measured) spans.push(`${firsts.at(-1)!.toFixed(0)}–${last.toFixed(0)}`);
  }
  // In the order sent: a slow first post (code not yet optimised) or one slow post decides the p99.
  const lastsInOrder = spans;
  const cpu = process.cpuUsage(cpuFrom);
  for (const list of [latencies, lasts, firsts, answers, withWarmUp]) list.sort((a, b) => a - b);
  return {
    warmUps,
    // This process's CPU per measured post: the clients, plus the dev database (ours) or the server (bare).
    ownCpuPerPost: (cpu.user + cpu.system) / 1000 / rounds,
    p99WithWarmUp: percentile(withWarmUp, 99),
    lastsInOrder,
    last: percentile(lasts, 50),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    // Where the time goes: the sender's answer (ours: the REST write), then the first and last receipt.
    answered: percentile(answers, 50),
    first: percentile(firsts, 50),
  };
}

/** The bare baseline: a `ws` server that broadcasts a trigger to every client, or forwards a message to one. */
async function bareServer() {
  const server = createServer();
  const wss = new WebSocketServer({ server });
  const byName = new Map<string, WebSocket>();
  wss.on('connection', (ws, req) => {
    const name = new URL(req.url!, 'http://x').searchParams.get('name')!;
    byName.set(name, ws);
    ws.on('message', (data) => {
      const { to, body } = JSON.parse(data.toString());
      if (to === '*') for (const client of wss.clients) client.send(body);
      else byName.get(to)?.send(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const connect = async (name: string) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/?name=${name}`);
    await new Promise((resolve) => ws.once('open', resolve));
    return ws;
  };
  return { connect, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Runs `work` under the V8 profiler when CPU_PROFILE names a file to write the profile to. */
async function profiled<T>(work: () => Promise<T>): Promise<T> {
  const file = process.env.CPU_PROFILE;
  if (!file) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

async function main() {
  console.log(`Starting the local stack (${DIRECT ? 'workerd through Miniflare, no proxy' : 'wrangler dev'} + devdb)…`);
  const stack = await startRealtimeStack({ direct: DIRECT });
  try {
    await measure(stack);
    const failures = stack
      .output()
      .split('\n')
      .filter((line) => line.includes('realtime:'));
    console.log(`\nreal-time failures the Worker logged: ${failures.length}`);
    for (const line of [...new Set(failures)].slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  } catch (error) {
    const said = stack
      .output()
      .split('\n')
      .filter((line) => !line.includes('101 Switching Protocols'));
    console.error(`wrangler dev said:\n${said.slice(-60).join('\n')}`);
    throw error;
  } finally {
    await stack.stop();
  }
}

async function measure(stack: Awaited<ReturnType<typeof startRealtimeStack>>) {
  const client = new MongoClient(stack.databaseUri);
  const db = client.db(databaseName(stack.databaseUri, undefined));
  const riders = Array.from({ length: Math.max(FEED_CLIENTS, CONVERSATIONS * 2) + 1 }, (_, i) => ({
    _id: new ObjectId(),
    name: `Bench Rider ${i}`,
    email: `bench-${i}@bench.test`,
    role: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  }));
  await db.collection('users').insertMany(riders);
  const tokens = await Promise.all(riders.map((rider) => signSessionToken(claimsFor(rider), stack.jwtSecret)));
  const join = async (namespace: string, token: string) => {
    const socket = io(`${stack.url}${namespace}`, {
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };

  // 1. Fan-out of one post.
  console.log(`Connecting ${FEED_CLIENTS} /feed clients…`);
  const feed: Socket[] = [];
  for (let i = 0; i < FEED_CLIENTS; i += 50) {
    feed.push(
      ...(await Promise.all(tokens.slice(i + 1, Math.min(i + 51, FEED_CLIENTS + 1)).map((t) => join('/feed', t)))),
    );
  }
  const author = tokens[0]!;
  let onPost: (at: number) => void = () => undefined;
  for (const socket of feed) socket.on('post:created', () => onPost(performance.now()));
  const stackCpuBefore = treeCpuSeconds(stack.pid);
  const feedProfile = process.env.FEED_PROFILE;
  const feedProfiling = feedProfile ? await profileIsolate(stack.inspectorPort!, feedProfile) : undefined;
  const ours = await profiled(() =>
    fanOut(
      FEED_CLIENTS,
      POSTS,
      (on) => (onPost = on),
      async () => {
        await stack.api('/feed', { token: author, body: { text: 'bench', media: [] } });
      },
    ),
  );
  const stackCpuAfter = treeCpuSeconds(stack.pid);
  if (feedProfiling) printProfile(await feedProfiling.stop(), POSTS + WARM_UP_POSTS, 'post', 30, feedProfile!);
  for (const socket of feed) socket.disconnect();

  const bare = await bareServer();
  const bareClients = await Promise.all(Array.from({ length: FEED_CLIENTS }, (_, i) => bare.connect(`c${i}`)));
  const trigger = await bare.connect('trigger');
  let onBare: (at: number) => void = () => undefined;
  for (const ws of bareClients) ws.on('message', () => onBare(performance.now()));
  const baseline = await fanOut(
    FEED_CLIENTS,
    POSTS,
    (on) => (onBare = on),
    async () => {
      trigger.send(JSON.stringify({ to: '*', body: 'post' }));
    },
  );
  for (const ws of [...bareClients, trigger]) ws.close();

  // Printed now: a later part that fails must not lose it.
  console.log(
    `\nOne post to ${FEED_CLIENTS} /feed clients (median of ${POSTS} posts after ${WARM_UP_POSTS} warm-up; REST write included in ours)`,
  );
  console.log(
    `  sender answered: ours ${ms(ours.answered)} (REST write), bare ws ${ms(baseline.answered)}; first receives: ours ${ms(ours.first)}, bare ws ${ms(baseline.first)}`,
  );
  console.log(
    `  last receives: ours ${ms(ours.last)}, bare ws ${ms(baseline.last)}, ratio ${ratio(ours.last, baseline.last)}`,
  );
  console.log(
    `  p50 per client: ours ${ms(ours.p50)}, bare ws ${ms(baseline.p50)}, ratio ${ratio(ours.p50, baseline.p50)}`,
  );
  console.log(
    `  p99 per client: ours ${ms(ours.p99)}, bare ws ${ms(baseline.p99)}, ratio ${ratio(ours.p99, baseline.p99)}`,
  );
  console.log(
    `  first–last receipt of each post in order (ms): ours ${ours.lastsInOrder.join(', ')}; bare ws ${baseline.lastsInOrder.join(', ')}`,
  );
  console.log(
    `  CPU per post: this process ${ms(ours.ownCpuPerPost)} with ours (clients and dev database), ${ms(baseline.ownCpuPerPost)} with bare ws (clients and server)` +
      (stackCpuBefore !== undefined && stackCpuAfter !== undefined
        ? `; the Worker's processes ${ms((1000 * (stackCpuAfter - stackCpuBefore)) / (POSTS + WARM_UP_POSTS))} (warm-up included)`
        : ''),
  );
  console.log(
    `  left out, the warm-up posts' last receipt: ours ${ours.warmUps.map(ms).join(', ') || 'none'}; bare ws ${baseline.warmUps.map(ms).join(', ') || 'none'}`,
  );
  console.log(
    `  p99 per client counting the warm-up too: ours ${ms(ours.p99WithWarmUp)}, bare ws ${ms(baseline.p99WithWarmUp)}, ratio ${ratio(ours.p99WithWarmUp, baseline.p99WithWarmUp)}`,
  );

  // 2. Concurrent conversations.
  console.log(`Opening ${CONVERSATIONS} conversations…`);
  const pairs = await inBatches(
    Array.from({ length: CONVERSATIONS }, (_, i) => async () => {
      const [a, b] = [tokens[1 + 2 * i]!, tokens[2 + 2 * i]!];
      const { body } = await stack.api('/conversations', {
        token: a,
        body: { participantIds: [riders[2 + 2 * i]!._id.toHexString()] },
      });
      return { id: body._id as string, a, b, sa: await join('/messages', a), sb: await join('/messages', b) };
    }),
  );
  const exchange = async (
    send: (pair: (typeof pairs)[number], from: 'a' | 'b', text: string) => Promise<void>,
    receiver: (pair: (typeof pairs)[number], from: 'a' | 'b') => { once: (cb: () => void) => void },
  ): Promise<Exchange> => {
    const latencies: number[] = [];
    const answers: number[] = [];
    const start = performance.now();
    await Promise.all(
      pairs.map(async (pair) => {
        for (let round = 0; round < ROUNDS * 2; round++) {
          const from = round % 2 ? 'b' : 'a';
          const arrived = within(new Promise<void>((resolve) => receiver(pair, from).once(resolve)));
          const sentAt = performance.now();
          await send(pair, from, `round ${round}`);
          answers.push(performance.now() - sentAt);
          if (await arrived) latencies.push(performance.now() - sentAt);
          else lost++;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    latencies.sort((x, y) => x - y);
    answers.sort((x, y) => x - y);
    return {
      perSecond: latencies.length / seconds,
      p99: percentile(latencies, 99),
      answered: percentile(answers, 50),
    };
  };
  console.log(`Exchanging ${ROUNDS * 2} messages in each conversation…`);
  const workerProfile = process.env.WORKER_PROFILE;
  // The bench starts its stack as a process of its own, which always has an inspector port.
  const profiling = workerProfile ? await profileIsolate(stack.inspectorPort!, workerProfile) : undefined;
  const cpuBefore = treeCpuSeconds(stack.pid);
  const ownBefore = process.cpuUsage();
  const oursChat = await exchange(
    async (pair, from, text) => {
      // A send answered with no JSON at all (the runtime restarted under load) is refused too.
      const { status } = await stack
        .api(`/conversations/${pair.id}/messages`, {
          token: from === 'a' ? pair.a : pair.b,
          body: { text },
          headers: { 'x-socket-id': (from === 'a' ? pair.sa : pair.sb).id! },
        })
        .catch(() => ({ status: 0 }));
      // A refused send (the dev database overwhelmed: 503) publishes nothing; it is counted apart from lost events.
      if (status !== 201) refused++;
    },
    (pair, from) => ({ once: (cb) => (from === 'a' ? pair.sb : pair.sa).once('message:created', cb) }),
  );
  const cpuAfter = treeCpuSeconds(stack.pid);
  const own = process.cpuUsage(ownBefore);
  if (profiling) printProfile(await profiling.stop(), CONVERSATIONS * ROUNDS * 2, 'message', 30, workerProfile!);
  for (const pair of pairs) {
    pair.sa.disconnect();
    pair.sb.disconnect();
  }
  const barePairs = await Promise.all(
    pairs.map(async (_, i) => ({ wa: await bare.connect(`a${i}`), wb: await bare.connect(`b${i}`), i })),
  );
  const bareChat = await (async () => {
    const latencies: number[] = [];
    const start = performance.now();
    await Promise.all(
      barePairs.map(async ({ wa, wb, i }) => {
        for (let round = 0; round < ROUNDS * 2; round++) {
          const [from, to, name] = round % 2 ? [wb, wa, `a${i}`] : [wa, wb, `b${i}`];
          const arrived = new Promise((resolve) => to.once('message', resolve));
          const sentAt = performance.now();
          from.send(JSON.stringify({ to: name, body: `round ${round}` }));
          await arrived;
          latencies.push(performance.now() - sentAt);
        }
      }),
    );
    latencies.sort((x, y) => x - y);
    return {
      perSecond: latencies.length / ((performance.now() - start) / 1000),
      p99: percentile(latencies, 99),
      answered: 0,
    };
  })();
  for (const { wa, wb } of barePairs) {
    wa.close();
    wb.close();
  }

  console.log(`\n${CONVERSATIONS} conversations, ${ROUNDS * 2} messages each (REST send to socket receipt in ours)`);
  console.log(
    `  messages/s: ours ${oursChat.perSecond.toFixed(0)}, bare ws ${bareChat.perSecond.toFixed(0)}, ratio ${ratio(bareChat.perSecond, oursChat.perSecond)} slower`,
  );
  if (cpuBefore !== undefined && cpuAfter !== undefined)
    console.log(
      `  the Worker's processes used ${((1000 * (cpuAfter - cpuBefore)) / (CONVERSATIONS * ROUNDS * 2)).toFixed(1)} ms of CPU per message sent (wrangler's proxy included unless DIRECT=1); this process (the dev database and the clients) ${((own.user + own.system) / 1000 / (CONVERSATIONS * ROUNDS * 2)).toFixed(1)} ms`,
    );
  console.log(
    `  sends refused by the service: ${refused}; stored but not delivered within ${LOST_AFTER_MS / 1000} s: ${lost - refused}`,
  );
  console.log(`  sender answered (REST send, p50): ours ${ms(oursChat.answered)}`);
  console.log(
    `  p99 delivery: ours ${ms(oursChat.p99)}, bare ws ${ms(bareChat.p99)}, ratio ${ratio(oursChat.p99, bareChat.p99)}`,
  );

  await bare.close();
  await client.close();
}

await main();
