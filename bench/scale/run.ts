/**
 * The scale harness (docs/scale.md): simulated riders on the local stack (the Worker in workerd through
 * Miniflare's own server, no wrangler proxy; DIRECT=0 for wrangler dev; + the dev database,
 * test/support/realtime-stack.ts), driven by the activity model of bench/scale/model.ts;
 * then a shard restart and a 10 s database outage under load; then the model fed with what was
 * measured, checked against this run, and run at 100,000 and 1,000,000 riders. Prints one table.
 * Bounded: stops by itself after DEADLINE_S (default 900 s), loopback only.
 * Run: npm run bench:scale   (RIDERS, DIRECT, FACTOR, STEADY_S, SHARDS, CONNECT_BUDGET_S, DEADLINE_S override)
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { MongoClient, ObjectId } from 'mongodb';
import { startRealtimeStack } from '../../test/support/realtime-stack.js';
import { applyIndexes } from '../../worker/data.js';
import { databaseName } from '../../worker/platform/db/database-name.js';
import { claimsFor, signSessionToken } from '../../worker/platform/tokens/token.js';
import { participantKey } from '../../worker/social/conversations/service.js';
import { percentile } from '../local-stack.js';
import { type CounterDelta, type CounterRow, counterDelta, summedDelta } from './counter-delta.js';
import {
  compressed,
  type MeasuredCosts,
  PRODUCTION_TOPOLOGY,
  type Prediction,
  predict,
  RIDER_ACTIVITY,
  relativeError,
} from './model.js';
import { holding, type ProcessHolding, perRider, recordPeaks, treeHoldings } from './processes.js';
import { cuttableProxy } from './proxy.js';
import { connectedCount, joinedWithin, openRider, type Rider, RiderStats, reactionKey } from './riders.js';

const RIDERS = Number(process.env.RIDERS ?? 5000);
/**
 * The Worker served through Miniflare's own server (scripts/workerd-direct.ts), as production has no proxy in
 * front; DIRECT=0 runs it under `wrangler dev`, whose proxy workerd holds about 6 open files per rider.
 */
const DIRECT = process.env.DIRECT !== '0';
/** The activity model sped up this many times, so a minute's run carries enough events to measure. */
const FACTOR = Number(process.env.FACTOR ?? 2);
const STEADY_S = Number(process.env.STEADY_S ?? 45);
const SHARDS = Number(process.env.SHARDS ?? 8);
const DEADLINE_S = Number(process.env.DEADLINE_S ?? 900);
/**
 * Connecting stops after this long, with whoever joined. 5,000 riders joined in 315 s on a 2-core machine whose
 * load average other work held at 17-33 (an idle one connected 2,000 at 53 a second), so the default leaves room.
 */
const CONNECT_BUDGET_S = Number(process.env.CONNECT_BUDGET_S ?? 420);
const OUTAGE_MS = 10_000;
/** How long after a failure the harness waits for the service to answer again before calling it "never". */
const RECOVERY_WAIT_S = Number(process.env.RECOVERY_WAIT_S ?? 120);
/** A REST call not answered within this long counts as failed (status 0). */
const REQUEST_TIMEOUT_MS = 15_000;
const CONNECT_BATCH = Number(process.env.CONNECT_BATCH ?? 50);
/** Requests the activity generator keeps in flight at most; beyond, an event is skipped and counted. */
const MAX_IN_FLIGHT = 150;
/** Connecting stops before a stack process would hold this share of its open-file limit (`ulimit -n`). */
const FD_SHARE = 0.85;

const begun = performance.now();
/** The machine's load average (1, 5, 15 min): other work on it slows every figure of the run. */
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadAtStart = loadAverage();
const elapsed = () => ((performance.now() - begun) / 1000).toFixed(0);
const log = (line: string) => console.log(`[${elapsed().padStart(3)} s] ${line}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The run stops by itself whatever happens: the stack is stopped and the process exits.
let stopStack: () => Promise<void> = async () => undefined;
let killStack: () => void = () => undefined;
const deadline = setTimeout(async () => {
  console.error(`Deadline of ${DEADLINE_S} s reached: stopping.`);
  await Promise.race([stopStack(), pause(10_000)]);
  killStack();
  process.exit(2);
}, DEADLINE_S * 1000);
deadline.unref();

/** The fields of REST answers the harness reads. */
type ReplyBody = { _id?: string; counts?: { love: number; respect: number }; items?: { _id: string }[] };

type Counters = {
  readAt: number;
  socketShards: (CounterRow & { name: string })[];
  dbGateways: (CounterRow & { name: string })[];
  riderPresence: (CounterRow & { riderId: string })[];
};

/** The stack's processes as last seen: kept so that what outlives the stack's own stop can be ended by pid. */
let stackPids: number[] = [];

/** What the stack's processes (the runner and its workerd children) hold now. */
function stackHoldings(root: number): ProcessHolding[] {
  const holdings = treeHoldings(root);
  if (holdings.length) stackPids = holdings.map((h) => h.pid);
  return holdings;
}

/** CPU seconds the stack's processes used so far. */
const stackCpuSeconds = (root: number) => stackHoldings(root).reduce((n, h) => n + h.cpuSeconds, 0);

async function main() {
  log(
    `Scale harness: ${RIDERS} riders, activity ×${FACTOR}, ${STEADY_S} s steady, ${SHARDS} shards, ${DIRECT ? 'workerd direct (no proxy)' : 'wrangler dev'}`,
  );
  const proxy = { current: null as Awaited<ReturnType<typeof cuttableProxy>> | null };
  // The dev database in a process of its own: in this one, thousands of clients' frames would starve it.
  const devdb = spawn(process.execPath, ['--import', 'tsx', 'devdb/src/cli.ts', '--port', '0', '--memory'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const devdbUri = await new Promise<string>((resolve, reject) => {
    let said = '';
    let isReady = false;
    devdb.stdout!.on('data', (chunk: Buffer) => {
      // What the dev database says after it is ready (a connection it closed, a slow sweep) belongs in the run's log.
      if (isReady) return void process.stderr.write(chunk);
      said += chunk.toString();
      const ready = /devdb ready (mongodb:\/\/\S+)/.exec(said);
      if (ready) {
        isReady = true;
        resolve(ready[1]!);
      }
    });
    devdb.on('exit', (code) => reject(new Error(`devdb exited with ${code}: ${said}`)));
  });
  const stopDevdb = () => devdb.exitCode === null && devdb.kill('SIGKILL');
  process.on('exit', stopDevdb);
  const stack = await startRealtimeStack({
    direct: DIRECT,
    // No line per request: thousands of upgrades and the steady REST traffic would each cost a call to Node.
    logLevel: 'warn',
    vars: { REALTIME_SHARDS: String(SHARDS) },
    // The stack's own in-process database stays idle; the Worker reaches the separate one through the proxy.
    routeDatabase: async () => {
      proxy.current = await cuttableProxy(devdbUri);
      return proxy.current.uri;
    },
  });
  const db = proxy.current!;
  stackHoldings(stack.pid);
  // Whatever of this stack did not stop by itself, by pid.
  killStack = () => {
    stopDevdb();
    for (const pid of stackPids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  stopStack = async () => {
    await Promise.race([stack.stop(), pause(8_000)]);
    await Promise.race([db.close(), pause(2_000)]);
    killStack();
  };
  const riders: Rider[] = [];
  try {
    await run(stack, db, riders, devdb.pid!);
  } finally {
    if (process.env.STACK_LOG) writeFileSync(process.env.STACK_LOG, stack.output());
    const said = stack
      .output()
      .split('\n')
      .filter((line) => /realtime:|rror|✘/.test(line));
    console.log(`\nthe Worker logged ${said.length} failure lines; the first distinct ones:`);
    for (const line of [...new Set(said.map((l) => l.slice(0, 160)))].slice(0, 8)) console.log(`  ${line}`);
    // Both namespaces closed: the manager closes the connection and does not reconnect.
    for (const rider of riders) {
      rider.feed.disconnect();
      rider.messages.disconnect();
    }
    await stopStack();
  }
}

async function run(
  stack: Awaited<ReturnType<typeof startRealtimeStack>>,
  db: Awaited<ReturnType<typeof cuttableProxy>>,
  riders: Rider[],
  devdbPid: number,
) {
  const client = new MongoClient(stack.databaseUri);
  const store = client.db(databaseName(stack.databaseUri, undefined));
  const stats = new RiderStats();

  // Accounts straight into the database, tokens signed here: setting up is not what is measured.
  const accounts = Array.from({ length: RIDERS + 1 }, (_, i) => ({
    _id: new ObjectId(),
    name: i === RIDERS ? 'Scale Admin' : `Scale Rider ${i}`,
    email: `scale-${i}@scale.test`,
    role: i === RIDERS ? ('admin' as const) : null,
    createdAt: new Date(),
    updatedAt: new Date(),
  }));
  await store.collection('users').insertMany(accounts);
  const tokens = await Promise.all(accounts.map((account) => signSessionToken(claimsFor(account), stack.jwtSecret)));
  const adminToken = tokens[RIDERS]!;

  const restLatencies: number[] = [];
  const restFailures = new Map<number, number>();
  const api = async (
    path: string,
    token: string,
    init: { method?: string; body?: unknown; socketId?: string } = {},
  ) => {
    const start = performance.now();
    try {
      const answer = await fetch(`${stack.url}/api${path}`, {
        method: init.method ?? (init.body ? 'POST' : 'GET'),
        headers: {
          'content-type': 'application/json',
          'x-auth-token': token,
          ...(init.socketId ? { 'x-socket-id': init.socketId } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const res = { status: answer.status, body: (await answer.json().catch(() => null)) as ReplyBody | null };
      restLatencies.push(performance.now() - start);
      if (res.status >= 400) restFailures.set(res.status, (restFailures.get(res.status) ?? 0) + 1);
      return res;
    } catch {
      restFailures.set(0, (restFailures.get(0) ?? 0) + 1);
      return { status: 0, body: null as ReplyBody | null };
    }
  };
  // The objects' own counters; the admin check reads the database, so under load a read is retried.
  const counters = async (sample: string[] = []): Promise<Counters> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(`${stack.url}/api/admin/object-counters?riders=${sample.join(',')}`, {
          headers: { 'x-auth-token': adminToken },
          signal: AbortSignal.timeout(20_000),
        });
        if (res.status === 200) return (await res.json()) as Counters;
        if (attempt >= 4) throw new Error(`object counters answered ${res.status}`);
      } catch (error) {
        if (attempt >= 4) throw error;
      }
      await pause(1000);
    }
  };

  // Conversations, rider 2i with rider 2i+1, as openConversation stores them (worker/social/conversations/service.ts).
  const now = new Date();
  const conversationDocs = Array.from({ length: Math.floor(RIDERS / 2) }, (_, k) => {
    const participantIds = [accounts[2 * k]!._id, accounts[2 * k + 1]!._id];
    return {
      _id: new ObjectId(),
      participantKey: participantKey(participantIds),
      participantIds,
      lastActivityAt: now,
      lastMessageId: null,
      readMarkers: participantIds.map((userId) => ({ userId, messageId: null, readAt: now })),
      createdAt: now,
      updatedAt: now,
    };
  });
  for (const [k, doc] of conversationDocs.entries()) pairs.set(2 * k, doc._id.toHexString());
  await store.collection('conversations').insertMany(conversationDocs);
  // The production indexes, as `npm run db:indexes` would create them.
  await applyIndexes(store);
  await client.close();

  log(`Connecting ${RIDERS} riders (${CONNECT_BATCH} at a time)…`);
  // Open files and memory with no rider connected: what each process gains per rider is measured from here.
  const idle = stackHoldings(stack.pid);
  const others = [
    { role: 'harness', pid: process.pid },
    { role: 'dev database', pid: devdbPid },
  ];
  const idleOthers = others.flatMap((o) => holding(o.pid) ?? []);
  const connectStart = performance.now();
  const joinTimes: number[] = [];
  for (let i = 0; i < RIDERS && performance.now() - connectStart < CONNECT_BUDGET_S * 1000; i += CONNECT_BATCH) {
    const growth = perRider(idle, stackHoldings(stack.pid), i);
    const full = growth.find((p) => p.openFiles + p.filesPerRider * CONNECT_BATCH > FD_SHARE * p.openFileLimit);
    if (i > 0 && full) {
      log(
        `  stopping at ${i} riders: ${full.name} (pid ${full.pid}) holds ${full.openFiles} of its ${full.openFileLimit} open files (${full.filesPerRider.toFixed(2)} more per rider); another batch would pass ${FD_SHARE * 100} %`,
      );
      break;
    }
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, RIDERS - i) }, (_, k) => {
      const index = i + k;
      const rider = openRider(stack.url, index, accounts[index]!._id.toHexString(), tokens[index]!, stats);
      const pairStart = index % 2 === 0 ? index : index - 1;
      rider.conversationId = pairs.get(pairStart);
      rider.partner = index % 2 === 0 ? index + 1 : index - 1;
      riders[index] = rider;
      return rider;
    });
    const batchStart = performance.now();
    await Promise.all(batch.map((rider) => joinedWithin(rider, 30_000)));
    joinTimes.push(performance.now() - batchStart);
    if ((i / CONNECT_BATCH) % 10 === 9) log(`  ${connectedCount(riders)} connected`);
  }
  // A rider whose partner was never opened (the budget ran out between them) does not chat.
  for (const rider of riders) {
    if (rider.partner !== undefined && !riders[rider.partner]) rider.conversationId = undefined;
  }
  const connectSeconds = (performance.now() - connectStart) / 1000;
  const opened = riders.length;
  log(
    `${connectedCount(riders)} of ${opened} opened riders connected in ${connectSeconds.toFixed(0)} s (a batch of ${CONNECT_BATCH}: median ${(
      percentile(
        joinTimes.sort((a, b) => a - b),
        50,
      ) / 1000
    ).toFixed(1)} s)`,
  );
  const sample = riders.slice(0, 100).map((rider) => rider.id);
  // What holding the riders costs each process: open files (against `ulimit -n`) and resident memory.
  const readAll = () => [...stackHoldings(stack.pid), ...others.flatMap((o) => holding(o.pid) ?? [])];
  const holdings = perRider([...idle, ...idleOthers], readAll(), connectedCount(riders));
  for (const p of holdings) log(`  ${holdingLine(p, others)}`);
  // The most each process held at any second of the run from here on (failure runs included).
  const peaks = new Map<number, ProcessHolding>();
  const sampler = setInterval(() => recordPeaks(peaks, readAll()), 1000);

  // Calibration: posts alone, each waited for at every rider, to price one frame; then feed reads.
  const posts: string[] = [];
  const sentAt = new Map<string, number>();
  const calibration = { posts: 5, reads: 20 };
  const before = await counters();
  const cpuBefore = stackCpuSeconds(stack.pid);
  const firstArrivals: number[] = [];
  for (let n = 0; n < calibration.posts; n++) {
    const text = `calibration ${n}`;
    const expected = connectedCount(riders);
    sentAt.set(text, performance.now());
    const { body } = await api('/feed', tokens[n]!, { body: { text, media: [] } });
    if (body?._id) posts.push(body._id);
    for (let wait = 0; wait < 200 && (stats.feedArrivals.get(text)?.length ?? 0) < expected; wait++) await pause(50);
    const arrivals = stats.feedArrivals.get(text) ?? [];
    if (arrivals.length) firstArrivals.push(Math.min(...arrivals.map((a) => a.at)) - sentAt.get(text)!);
  }
  const afterPosts = await counters();
  for (let n = 0; n < calibration.reads; n++) await api('/feed', tokens[n]!);
  const afterReads = await counters();
  const calibrationCpu = stackCpuSeconds(stack.pid) - cpuBefore;
  const delta = (a: Counters, b: Counters, kind: 'socketShards' | 'dbGateways', field: keyof CounterDelta) =>
    summedDelta<CounterRow & { name: string }>(a[kind], b[kind], (row) => row.name)[field];
  const calibrationFrames = [...Array(calibration.posts).keys()].reduce(
    (n, k) => n + (stats.feedArrivals.get(`calibration ${k}`)?.length ?? 0),
    0,
  );
  const shardCpuMsPerFrame = delta(before, afterPosts, 'socketShards', 'cpuMs') / calibrationFrames;
  const dbOpsPerRestWrite = delta(before, afterPosts, 'dbGateways', 'requests') / calibration.posts;
  const dbOpsPerRestRead = delta(afterPosts, afterReads, 'dbGateways', 'requests') / calibration.reads;
  log(
    `calibrated: ${shardCpuMsPerFrame.toFixed(4)} ms shard CPU per frame, ${dbOpsPerRestWrite.toFixed(1)} db ops per post, ${dbOpsPerRestRead.toFixed(1)} per feed read (workerd ${calibrationCpu.toFixed(1)} CPU s)`,
  );

  // The activity generator: each kind at its aggregate rate, arrivals spaced exponentially.
  const activity = compressed(RIDER_ACTIVITY, FACTOR);
  let running = true;
  let inFlight = 0;
  let skipped = 0;
  let eventSeq = 0;
  const acked: { id: string; conversationId: string; to: number; from: number; text: string; at: number }[] = [];
  const pick = () => riders[Math.floor(Math.random() * riders.length)]!;
  const fire = (task: () => Promise<unknown>) => {
    if (inFlight >= MAX_IN_FLIGHT) return void skipped++;
    inFlight++;
    task()
      .catch(() => undefined)
      .finally(() => inFlight--);
  };
  const emit = (rider: Rider, name: string, payload: unknown) => {
    stats.framesIn++;
    return rider.messages.timeout(5000).emitWithAck(name, payload);
  };
  const kinds: Record<string, () => Promise<unknown>> = {
    posts: async () => {
      const text = `post ${++eventSeq}`;
      sentAt.set(text, performance.now());
      const { body } = await api('/feed', pick().token, { body: { text, media: [] } });
      if (body?._id) posts.push(body._id);
    },
    reactions: async () => {
      const postId = posts[Math.floor(Math.random() * posts.length)];
      if (!postId) return;
      const start = performance.now();
      const { status, body } = await api(`/feed/${postId}/reactions`, pick().token, {
        method: 'PUT',
        body: { type: Math.random() < 0.5 ? 'love' : 'respect' },
      });
      if (status === 200 && body?.counts) sentAt.set(reactionKey(postId, body.counts), start);
    },
    comments: async () => {
      const postId = posts[Math.floor(Math.random() * posts.length)];
      if (postId) await api(`/feed/${postId}/comments`, pick().token, { body: { text: `comment ${++eventSeq}` } });
    },
    messages: async () => {
      const rider = pick();
      if (!rider.conversationId) return;
      const conversationId = rider.conversationId;
      // Typing as the model has it: a start, a refresh, a stop around the write.
      await emit(rider, 'typing:start', { conversationId }).catch(() => undefined);
      await emit(rider, 'typing:start', { conversationId }).catch(() => undefined);
      const text = `message ${++eventSeq}`;
      const at = performance.now();
      const { status, body } = await api(`/conversations/${conversationId}/messages`, rider.token, {
        body: { text },
        socketId: rider.messages.id,
      });
      await emit(rider, 'typing:stop', { conversationId }).catch(() => undefined);
      if (status === 201 && body?._id)
        acked.push({ id: body._id, conversationId, to: rider.partner!, from: rider.index, text, at });
    },
    viewingChanges: async () => {
      const rider = pick();
      if (!rider.conversationId) return;
      await emit(rider, 'conversation:viewing', {
        conversationId: Math.random() < 0.5 ? rider.conversationId : null,
      }).catch(() => undefined);
    },
    readMarkers: async () => {
      const rider = pick();
      if (rider.conversationId) await api(`/conversations/${rider.conversationId}/read`, rider.token, { body: {} });
    },
    restReads: async () => {
      await api(Math.random() < 0.5 ? '/feed' : '/conversations', pick().token);
    },
    sessions: async () => {
      // The app went to the background and back: the connection closes and opens again.
      const rider = pick();
      rider.manager.engine?.close();
    },
  };
  const generators = Object.entries(kinds).map(async ([kind, task]) => {
    const perSecond = (opened * (activity[kind as keyof typeof activity] as number)) / 3600;
    if (!perSecond) return;
    while (running) {
      await pause(-Math.log(1 - Math.random()) * (1000 / perSecond));
      if (running) fire(task);
    }
  });

  // Steady phase: everything measured between two counter reads.
  log(`Steady phase: ${STEADY_S} s of activity…`);
  await pause(5000); // let the generators reach their rates
  // Under load the admin check's database read can fail: the run goes on without the objects' figures.
  const steadyFrom = {
    counters: await counters(sample).catch(() => null),
    cpu: stackCpuSeconds(stack.pid),
    at: performance.now(),
  };
  const steadyMarks = {
    framesOut: stats.framesOut,
    framesIn: stats.framesIn,
    rest: restLatencies.length,
    errors: stats.connectErrors,
    dropped: stats.dropped,
    acked: acked.length,
  };
  const held: number[] = [];
  const restFrom = restLatencies.length;
  for (let s = 0; s < STEADY_S; s++) {
    await pause(1000);
    held.push(connectedCount(riders));
  }
  const steadyHoldings = perRider([...idle, ...idleOthers], readAll(), connectedCount(riders));
  const steadyTo = {
    counters: await counters(sample).catch(() => null),
    cpu: stackCpuSeconds(stack.pid),
    at: performance.now(),
  };
  const steadySeconds = (steadyTo.at - steadyFrom.at) / 1000;
  const steadyRest = restLatencies.slice(restFrom).sort((a, b) => a - b);
  const steadyRestCount = steadyRest.length;
  const steady = {
    framesOutPerSecond: (stats.framesOut - steadyMarks.framesOut) / steadySeconds,
    framesInPerSecond: (stats.framesIn - steadyMarks.framesIn) / steadySeconds,
    restPerSecond: steadyRestCount / steadySeconds,
    connectErrors: stats.connectErrors - steadyMarks.errors,
    dropped: stats.dropped - steadyMarks.dropped,
    heldMin: Math.min(...held),
    heldMean: held.reduce((a, b) => a + b, 0) / held.length,
  };
  const perInstance = (kind: 'socketShards' | 'dbGateways' | 'riderPresence') =>
    (steadyFrom.counters && steadyTo.counters ? steadyTo.counters[kind] : []).map((row, i) => {
      // Same names in the same order in both readings; a restarted instance counts from its restart.
      const { requests, wallMs, cpuMs } = counterDelta(steadyFrom.counters![kind][i], row);
      return {
        rps: requests / steadySeconds,
        wallMsPerSecond: wallMs / steadySeconds,
        cpuMsPerSecond: cpuMs / steadySeconds,
        requests,
        wallMs,
        cpuMs,
        peak: row.peakPerSecond,
      };
    });
  const objectRows = {
    SocketShard: perInstance('socketShards'),
    DbGateway: perInstance('dbGateways'),
    RiderPresence: perInstance('riderPresence'),
  };

  // Failure 1: restart shard-0 under load.
  log('Failure run 1: restarting shard-0 under load…');
  const restartAckedFrom = acked.length;
  const resetAt = performance.now();
  const resetRes = await fetch(`${stack.url}/api/admin/socket-shards/0/reset`, {
    method: 'POST',
    headers: { 'x-auth-token': adminToken },
    signal: AbortSignal.timeout(20_000),
  }).catch(() => null);
  const closedByReset = resetRes?.status === 200 ? ((await resetRes.json()) as { closed: number }).closed : -1;
  let lowest = connectedCount(riders);
  let restartRecoveryMs = Number.NaN;
  for (let wait = 0; wait < 600; wait++) {
    await pause(50);
    const now = connectedCount(riders);
    lowest = Math.min(lowest, now);
    if (wait > 10 && now >= steady.heldMin) {
      restartRecoveryMs = performance.now() - resetAt;
      break;
    }
  }
  log(
    `  shard-0 closed ${closedByReset} sockets; lowest ${lowest} connected; back in ${restartRecoveryMs.toFixed(0)} ms`,
  );
  await pause(3000);

  // Failure 2: the database unreachable for 10 s under load.
  log(`Failure run 2: database unreachable for ${OUTAGE_MS / 1000} s under load…`);
  const outageFailuresFrom = new Map(restFailures);
  const outageAckedFrom = acked.length;
  await db.cutFor(OUTAGE_MS);
  const outageEnd = performance.now();
  // The wait is cut short where it would leave less than 90 s before the hard deadline for the message check and
  // the table: a run that ends at its deadline prints nothing.
  const recoveryWaitMs = Math.max(
    15_000,
    Math.min(RECOVERY_WAIT_S * 1000, DEADLINE_S * 1000 - (outageEnd - begun) - 90_000),
  );
  let writesBackMs = Number.NaN;
  const probes = new Map<number, number>();
  while (performance.now() - outageEnd < recoveryWaitMs) {
    const rider = pick();
    const { status } = await api('/feed', rider.token);
    probes.set(status, (probes.get(status) ?? 0) + 1);
    if (status === 200) {
      writesBackMs = performance.now() - outageEnd;
      break;
    }
    await pause(100);
  }
  if (Number.isNaN(writesBackMs))
    log(
      `  no REST answer within ${(recoveryWaitMs / 1000).toFixed(0)} s; probes by status (0: no answer in 15 s): ${JSON.stringify(Object.fromEntries(probes))}`,
    );
  let socketsBackMs = Number.NaN;
  while (performance.now() - outageEnd < recoveryWaitMs) {
    if (connectedCount(riders) >= steady.heldMin) {
      socketsBackMs = performance.now() - outageEnd;
      break;
    }
    await pause(100);
  }
  const outageRefused = [...restFailures].reduce(
    (n, [status, count]) => n + count - (outageFailuresFrom.get(status) ?? 0),
    0,
  );
  log(
    `  REST answered again ${writesBackMs.toFixed(0)} ms after the database came back; sockets back after ${socketsBackMs.toFixed(0)} ms; ${outageRefused} requests refused during the run`,
  );

  running = false;
  clearInterval(sampler);
  // The generators see `running` at their next arrival; a slow kind may sleep for minutes, so they are not awaited.
  void generators;
  for (let wait = 0; wait < 100 && inFlight > 0; wait++) await pause(100);
  await pause(2000);

  // Nothing acknowledged lost: every acknowledged message is stored (REST catch-up finds it), and we
  // count which reached the other rider's socket, and how often twice.
  log(`Checking ${acked.length} acknowledged messages…`);
  const byConversation = new Map<string, typeof acked>();
  for (const message of acked)
    byConversation.set(message.conversationId, [...(byConversation.get(message.conversationId) ?? []), message]);
  let stored = 0;
  let viaSocket = 0;
  let duplicates = 0;
  let unchecked = 0;
  let lostDuringFailures = 0;
  const conversations = [...byConversation];
  const checkStart = performance.now();
  let checked = 0;
  for (let i = 0; i < conversations.length && performance.now() - checkStart < 45_000; i += 20) {
    checked += conversations.slice(i, i + 20).reduce((n, [, messages]) => n + messages.length, 0);
    await Promise.all(
      conversations.slice(i, i + 20).map(async ([conversationId, messages]) => {
        const reader = riders[messages[0]!.to]!;
        const found = new Set<string>();
        let after: string | undefined;
        let unreadable = false;
        for (let page = 0; page < 50; page++) {
          const { status, body } = await api(
            `/conversations/${conversationId}/messages?limit=100${after ? `&after=${after}` : '&after=000000000000000000000000'}`,
            reader.token,
          );
          if (status !== 200) {
            unreadable = true;
            break;
          }
          const items = (body?.items ?? []) as { _id: string }[];
          for (const item of items) found.add(item._id);
          if (items.length < 100) break;
          after = items.at(-1)!._id;
        }
        if (unreadable) {
          unchecked += messages.length;
          return;
        }
        for (const message of messages) {
          if (found.has(message.id)) stored++;
          const arrivals = (stats.messageArrivals.get(message.id) ?? []).filter((a) => a.rider === message.to);
          if (arrivals.length) viaSocket++;
          else if (message.at >= resetAt) lostDuringFailures++;
          if (arrivals.length > 1) duplicates += arrivals.length - 1;
        }
      }),
    );
  }

  // Fan-out latency of feed events (write sent → each receiver), in the steady phase.
  const lastLatencies: number[] = [];
  const receiverLatencies: number[] = [];
  for (const [key, sent] of sentAt) {
    if (sent < steadyFrom.at || sent > steadyTo.at) continue;
    const arrivals = stats.feedArrivals.get(key);
    if (!arrivals?.length) continue;
    let last = 0;
    for (const arrival of arrivals) {
      // The same key can recur (a reaction switched back to earlier counts): only this event's window.
      if (arrival.at < sent || arrival.at - sent > 10_000) continue;
      receiverLatencies.push(arrival.at - sent);
      last = Math.max(last, arrival.at - sent);
    }
    lastLatencies.push(last);
  }
  lastLatencies.sort((a, b) => a - b);
  receiverLatencies.sort((a, b) => a - b);
  const messageLatencies = acked
    .filter((m) => m.at >= steadyFrom.at && m.at <= steadyTo.at)
    .flatMap((m) => (stats.messageArrivals.get(m.id) ?? []).filter((a) => a.rider === m.to).map((a) => a.at - m.at))
    .sort((a, b) => a - b);

  // The model, fed with this run's measurements.
  const shardRows = objectRows.SocketShard;
  const shardRequests = shardRows.reduce((n, r) => n + r.requests, 0);
  const shardCpu = shardRows.reduce((n, r) => n + r.cpuMs, 0);
  const framesSteady = steady.framesOutPerSecond * steadySeconds;
  const presenceRows = objectRows.RiderPresence;
  const gatewayRows = objectRows.DbGateway;
  const objectCpuMs = [...shardRows, ...presenceRows, ...gatewayRows].reduce((n, r) => n + r.cpuMs, 0);
  const workerCpuMs = Math.max(0, (steadyTo.cpu - steadyFrom.cpu) * 1000 - objectCpuMs);
  const costs: MeasuredCosts = {
    shardCpuMsPerFrame,
    shardCpuMsPerRequest: Math.max(0, shardCpu - framesSteady * shardCpuMsPerFrame) / Math.max(1, shardRequests),
    presenceCpuMsPerRequest:
      presenceRows.reduce((n, r) => n + r.cpuMs, 0) /
      Math.max(
        1,
        presenceRows.reduce((n, r) => n + r.requests, 0),
      ),
    dbOpsPerRestWrite,
    dbOpsPerRestRead,
    gatewayCpuMsPerOp:
      gatewayRows.reduce((n, r) => n + r.cpuMs, 0) /
      Math.max(
        1,
        gatewayRows.reduce((n, r) => n + r.requests, 0),
      ),
    workerCpuMsPerRequest: workerCpuMs / Math.max(1, steadyRestCount),
    fanoutBaseMs: percentile(
      firstArrivals.sort((a, b) => a - b),
      50,
    ),
  };
  const localTopology = {
    ...PRODUCTION_TOPOLOGY,
    socketsPerShard: opened / SHARDS,
    minShards: SHARDS,
    serialShards: true,
  };
  const local = predict(opened, activity, costs, localTopology);
  const at100k = predict(100_000, RIDER_ACTIVITY, costs);
  const at1m = predict(1_000_000, RIDER_ACTIVITY, costs);
  // What the next step buys (docs/scale.md, Where it breaks first): smaller shards and more gateways,
  // then reaction counts sent only to the riders who show the post instead of to everyone.
  const tuned = { ...PRODUCTION_TOPOLOGY, socketsPerShard: 250 };
  const at100kTuned = predict(100_000, RIDER_ACTIVITY, costs, { ...tuned, dbGateways: 8 });
  const at1mTuned = predict(1_000_000, RIDER_ACTIVITY, costs, { ...tuned, dbGateways: 64 });
  const at1mNoReactionBroadcast = predict(1_000_000, { ...RIDER_ACTIVITY, reactions: 0 }, costs, {
    ...tuned,
    dbGateways: 64,
  });

  const busiest = (rows: { rps: number; cpuMsPerSecond: number; wallMsPerSecond: number }[]) =>
    rows.reduce(
      (a, b) => (b.rps > a.rps ? b : a),
      rows[0] ?? { rps: Number.NaN, cpuMsPerSecond: 0, wallMsPerSecond: 0 },
    );
  const measuredDbOps = gatewayRows.reduce((n, r) => n + r.rps, 0);
  const measuredPresenceRps = presenceRows.reduce((n, r) => n + r.rps, 0) / Math.max(1, presenceRows.length);

  console.log(
    `\n=== Scale harness: ${opened} riders on this machine (of ${RIDERS} asked; ${DIRECT ? 'workerd direct' : 'wrangler dev'}) (activity ×${FACTOR}, ${steadySeconds.toFixed(0)} s steady) ===`,
  );
  console.log(
    `connections held: min ${steady.heldMin}, mean ${steady.heldMean.toFixed(0)} (of ${opened} opened; each carries /feed and /messages)`,
  );
  console.log(
    `open files and memory when connecting ended (machine load average ${loadAtStart} at the start, ${loadAverage()} now, ${os.availableParallelism()} cores):`,
  );
  for (const p of holdings) console.log(`  ${holdingLine(p, others)}`);
  console.log('at the end of the steady phase:');
  for (const p of steadyHoldings) console.log(`  ${holdingLine(p, others)}`);
  console.log('most held at any second from the end of connecting through the failure runs:');
  for (const p of peaks.values())
    console.log(
      `  ${others.find((o) => o.pid === p.pid)?.role ?? 'stack'} ${p.name} (pid ${p.pid}): ${p.openFiles} of ${p.openFileLimit} open files, ${(p.residentBytes / 2 ** 20).toFixed(0)} MB resident`,
    );
  console.log(
    `connect: ${opened} riders in ${connectSeconds.toFixed(0)} s; connect errors in steady phase ${steady.connectErrors}, dropped sockets ${steady.dropped}`,
  );
  console.log(
    `REST: ${steady.restPerSecond.toFixed(1)}/s, p50 ${pct(steadyRest, 50)} ms, p95 ${pct(steadyRest, 95)} ms; failures by status over the whole run ${JSON.stringify(Object.fromEntries(restFailures))}; generator skipped ${skipped} events (in-flight cap)`,
  );
  console.log(
    `fan-out (feed event written → receiver): last receiver p50 ${pct(lastLatencies, 50)}, p95 ${pct(lastLatencies, 95)}, p99 ${pct(lastLatencies, 99)} ms over ${lastLatencies.length} events; per receiver p50 ${pct(receiverLatencies, 50)}, p99 ${pct(receiverLatencies, 99)} ms`,
  );
  console.log(
    `messages (REST send → other rider's socket): p50 ${pct(messageLatencies, 50)}, p95 ${pct(messageLatencies, 95)}, p99 ${pct(messageLatencies, 99)} ms over ${messageLatencies.length}`,
  );
  console.log(
    "\nper Durable Object class, steady phase (from the objects' own counters; presence: 100 riders sampled)",
  );
  console.log(
    row([
      'class',
      'instances',
      'req/s mean',
      'req/s busiest',
      'peak req in 1 s',
      'wall ms/s busiest',
      'CPU ms/s busiest',
    ]),
  );
  for (const [name, rows] of Object.entries(objectRows)) {
    if (!rows.length) {
      console.log(row([name, 'counters not readable (the admin check could not reach the database)']));
      continue;
    }
    const top = busiest(rows);
    console.log(
      row([
        name,
        String(rows.length),
        (rows.reduce((n, r) => n + r.rps, 0) / rows.length).toFixed(2),
        top.rps.toFixed(2),
        String(Math.max(...rows.map((r) => r.peak))),
        top.wallMsPerSecond.toFixed(1),
        top.cpuMsPerSecond.toFixed(2),
      ]),
    );
  }
  console.log(
    `workerd process CPU: ${((steadyTo.cpu - steadyFrom.cpu) / steadySeconds).toFixed(2)} cores in the steady phase`,
  );

  console.log('\nfailure runs');
  console.log(
    `  shard restart: shard-0 closed ${closedByReset} sockets; connected fell to ${lowest}; all back after ${fmt(restartRecoveryMs)} ms`,
  );
  console.log(
    `  database cut ${OUTAGE_MS / 1000} s: REST answered again ${fmt(writesBackMs)} ms after; connections at steady level ${fmt(socketsBackMs)} ms after; requests refused ${outageRefused}`,
  );
  console.log(
    `  acknowledged messages: ${acked.length} (${acked.length - restartAckedFrom} during the failure runs, ${acked.length - outageAckedFrom} from the cut on); checked over REST ${checked - unchecked} (${unchecked} not readable: the service did not answer); stored ${stored}; LOST ${checked - unchecked - stored}`,
  );
  console.log(
    `  reached the other rider's socket ${viaSocket}; not pushed (socket reconnecting, caught up over REST) ${acked.length - viaSocket} (${lostDuringFailures} during the failure runs); duplicate deliveries ${duplicates}`,
  );

  const compare: [string, number, number][] = [
    ['frames out/s (server → clients)', steady.framesOutPerSecond, local.messagesOutPerSecond],
    ['frames in/s (clients → server, events)', steady.framesInPerSecond, local.messagesInPerSecond],
    ['REST requests/s', steady.restPerSecond, local.restPerSecond],
    ['busiest shard req/s', busiest(shardRows).rps, local.shards.busiestRequestsPerSecond],
    ['mean shard req/s', shardRows.reduce((n, r) => n + r.rps, 0) / shardRows.length, local.shards.requestsPerSecond],
    ['presence req/s per rider', measuredPresenceRps, local.presence.requestsPerSecond],
    ['database ops/s (gateways)', measuredDbOps, local.dbOpsPerSecond],
    ['fan-out last receiver p50 ms', percentile(lastLatencies, 50) ?? Number.NaN, local.fanoutLastMs],
  ];
  console.log(
    `\nmodel vs this run (${opened} riders, ×${FACTOR}; costs measured above: ${JSON.stringify(round(costs))})`,
  );
  console.log(row(['figure', 'measured', 'model', 'error']));
  for (const [name, measured, predicted] of compare)
    console.log(
      row([
        name,
        measured.toFixed(2),
        predicted.toFixed(2),
        `${(relativeError(predicted, measured) * 100).toFixed(0)} %`,
      ]),
    );

  console.log(
    '\npredicted (activity model at real rate, production topology: 1,000 sockets per shard, shards in parallel)',
  );
  console.log(
    row([
      'riders',
      'shards',
      'busiest shard',
      'share of limit',
      'presence objs',
      'busiest presence share',
      'gateways share',
      'db ops/s',
      'frames out/s',
      'broadcasts/s',
      'fan-out ms',
      'db conns',
      '$/month',
    ]),
  );
  for (const p of [local, at100k, at1m]) console.log(predictionRow(p));
  console.log('next steps: 250 sockets per shard, 8 gateways at 100k and 64 at 1M; then no feed-wide reaction counts');
  for (const p of [at100kTuned, at1mTuned, at1mNoReactionBroadcast]) console.log(predictionRow(p));
  const c = at100k.monthlyCost;
  console.log(
    `\n100k monthly: Workers $${c.workers.toFixed(2)}, DO requests $${c.objectRequests.toFixed(2)}, DO duration $${c.objectDuration.toFixed(2)}, storage $${c.storage.toFixed(2)}, base $5 → $${c.total.toFixed(2)} (usage ${JSON.stringify(round(c.usage))})`,
  );
  const d = at1m.monthlyCost;
  console.log(
    `1M monthly: Workers $${d.workers.toFixed(2)}, DO requests $${d.objectRequests.toFixed(2)}, DO duration $${d.objectDuration.toFixed(2)}, storage $${d.storage.toFixed(2)} → $${d.total.toFixed(2)}`,
  );
  console.log(
    'prices: developers.cloudflare.com/workers/platform/pricing and /durable-objects/platform/pricing as read 2026-11-23 (bench/scale/model.ts CLOUDFLARE_PRICES); MongoDB cluster not included',
  );
}

/** One process's open files and memory at the connected riders, and what each rider added. */
function holdingLine(p: ReturnType<typeof perRider>[number], others: { role: string; pid: number }[]): string {
  const role = others.find((o) => o.pid === p.pid)?.role ?? 'stack';
  return `${role} ${p.name} (pid ${p.pid}): ${p.openFiles} of ${p.openFileLimit} open files (${p.filesPerRider.toFixed(2)} per rider), ${(p.residentBytes / 2 ** 20).toFixed(0)} MB resident (${(p.bytesPerRider / 1024).toFixed(0)} KB per rider)`;
}

const pct = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p).toFixed(0) : 'n/a');
const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : 'never');
const row = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(40) : cell.padStart(14))).join(' ');
const round = (o: object) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toPrecision(3)) : v]));

function predictionRow(p: Prediction): string {
  return row([
    p.riders.toLocaleString('en'),
    String(p.shards.count),
    `${p.shards.busiestRequestsPerSecond.toFixed(0)} req/s, ${p.shards.busiestMsPerSecond.toFixed(0)} CPU ms/s`,
    `${(p.shards.busiestShare * 100).toFixed(0)} % (${p.shards.bindingLimit})`,
    p.presence.count.toLocaleString('en'),
    `${(p.presence.busiestShare * 100).toFixed(2)} %`,
    `${(p.gateways.busiestShare * 100).toFixed(0)} % (${p.gateways.bindingLimit})`,
    p.dbOpsPerSecond.toFixed(0),
    p.messagesOutPerSecond.toFixed(0),
    p.broadcastsPerSecond.toFixed(1),
    p.fanoutLastMs.toFixed(0),
    String(p.connectionsHeld.database),
    p.monthlyCost.total.toFixed(0),
  ]);
}

const pairs = new Map<number, string>();

await main();
process.exit(0);
