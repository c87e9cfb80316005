/**
 * What an idle Socket.IO client costs the rooms, by transport, on the local stack (wrangler dev + the dev database).
 * In each run, one after another on the same stack, N socket.io-client v4 clients sit idle in /feed and /messages
 * (one Engine.IO session each, both namespaces multiplexed on it) for WINDOW_ROUNDS ping rounds:
 *  (a) transports ['websocket'];  (b) transports ['polling'];  (c) the defaults (polling, then the upgrade);
 * and a window with no client at all, the workerd baseline subtracted from each group's CPU.
 * Per client and minute: HTTP requests and WebSocket upgrades reaching the Worker (counted by a proxy in front
 * of wrangler dev), and CPU time of the workerd processes (/proc utime + stime). The stack pings every
 * PING_INTERVAL_MS (5 s: short, yet long enough that a loaded
 * machine does not delay pongs past pingTimeout) so a window of 8 rounds takes 40 s; the figures are per ping round, scaled to the
 * default cadence (25 s, so 2.4 rounds a minute). RUNS fresh stacks; median [min–max] over them.
 * Run: npx tsx bench/realtime-idle-cost.ts   (CLIENTS=50 or e.g. 50,200, RUNS=3 WINDOW_ROUNDS=8 PING_INTERVAL_MS=5000 override)
 */
import http from 'node:http';
import net from 'node:net';
import { MongoClient, ObjectId } from 'mongodb';
import { io, type Socket } from 'socket.io-client';
import { startRealtimeStack } from '../test/support/realtime-stack.js';
import { databaseName } from '../worker/platform/db/database-name.js';
import { claimsFor, signSessionToken } from '../worker/platform/tokens/token.js';
import { workerdCpuSeconds } from './workerd-cpu.js';

const CLIENTS = (process.env.CLIENTS ?? '50').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 3);
const WINDOW_ROUNDS = Number(process.env.WINDOW_ROUNDS ?? 8);
const PING_INTERVAL_MS = Number(process.env.PING_INTERVAL_MS ?? 5000);
// The default pingTimeout is 20/25 of the interval; kept in proportion.
const PING_TIMEOUT_MS = Math.round((PING_INTERVAL_MS * 20) / 25);
const DEFAULT_PING_INTERVAL_MS = 25_000;
const DEFAULT_ROUNDS_PER_MINUTE = 60_000 / DEFAULT_PING_INTERVAL_MS;
const WINDOW_MS = WINDOW_ROUNDS * PING_INTERVAL_MS;

type Group = 'websocket' | 'polling' | 'default';
const GROUPS: { group: Group; label: string; transports?: string[] }[] = [
  { group: 'websocket', label: "(a) transports ['websocket']", transports: ['websocket'] },
  { group: 'polling', label: "(b) transports ['polling']", transports: ['polling'] },
  { group: 'default', label: '(c) defaults (polling, then upgrade)' },
];

interface Counts {
  polls: number;
  posts: number;
  otherHttp: number;
  upgrades: number;
}
const zero = (): Counts => ({ polls: 0, posts: 0, otherHttp: 0, upgrades: 0 });
const minus = (a: Counts, b: Counts): Counts => ({
  polls: a.polls - b.polls,
  posts: a.posts - b.posts,
  otherHttp: a.otherHttp - b.otherHttp,
  upgrades: a.upgrades - b.upgrades,
});

/** Forwards every request and upgrade socket to wrangler dev, counting what reaches the Worker. */
async function countingProxy(target: URL) {
  const counts = zero();
  const refusals = new Map<string, number>();
  const said = new Set<string>();
  const host = target.hostname;
  const port = Number(target.port);
  // A connection per request: reusing an idle keep-alive one races the server closing it (socket hang up).
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const server = http.createServer((req, res) => {
    const engine = req.url?.startsWith('/socket.io/');
    if (engine && req.method === 'GET') counts.polls++;
    else if (engine && req.method === 'POST') counts.posts++;
    else counts.otherHttp++;
    const upstream = http.request(
      { host, port, method: req.method, path: req.url, headers: req.headers, agent },
      (up) => {
        if (up.statusCode !== 200) {
          const key = `${req.method} ${up.statusCode}`;
          refusals.set(key, (refusals.get(key) ?? 0) + 1);
          if (!said.has(key)) {
            said.add(key);
            let body = '';
            up.on('data', (chunk: Buffer) => (body += chunk.toString().slice(0, 300)));
            up.on('end', () => console.log(`  first ${key}: ${body.slice(0, 300)}`));
          }
        }
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const open = new Set<net.Socket>();
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    counts.upgrades++;
    const upstream = net.connect(port, host, () => {
      let lines = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      upstream.write(`${lines}\r\n`);
      if (head.length) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    open.add(upstream).add(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
      open.delete(socket);
      open.delete(upstream);
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    counts: (): Counts => ({ ...counts }),
    /** Answers other than 200 so far, by method and status, then forgotten. */
    refusals: () => {
      const said = Object.fromEntries(refusals);
      refusals.clear();
      return said;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One client as an app opens it: /feed, and /messages multiplexed on the same Engine.IO session. */
async function openClient(url: string, token: string, transports?: string[]) {
  const feed = io(`${url}/feed`, {
    auth: { token },
    forceNew: true,
    reconnection: false,
    ...(transports ? { transports } : {}),
  });
  const messages = feed.io.socket('/messages', { auth: { token } });
  // A session closed before the namespace joined ends in `disconnect`, not `connect_error`.
  const joined = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no connect within 30 s')), 30_000);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('connect_error', (error) => reject(error));
      socket.once('disconnect', (reason) => reject(new Error(`closed while joining: ${reason}`)));
    });
  try {
    await Promise.all([joined(feed), joined(messages)]);
  } catch (error) {
    feed.io.engine.close();
    throw error;
  }
  return { feed, messages };
}

let retried = 0;
/** A client refused while connecting (a loaded machine can delay a pong past pingTimeout) is opened again. */
async function openClientRetrying(url: string, token: string, transports?: string[]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openClient(url, token, transports);
    } catch (error) {
      if (attempt === 3) throw error;
      retried++;
      console.log(`  a client was refused while connecting (${(error as Error).message}); opening it again`);
    }
  }
}

interface Measured {
  /** Per client per minute at the default cadence, during the idle window. */
  requests: number;
  polls: number;
  posts: number;
  upgrades: number;
  cpuMs: number;
  /** Per client, while connecting (handshake, namespaces, upgrade). */
  connectRequests: number;
  connectUpgrades: number;
  dropped: number;
  onWebSocket: number;
}

async function oneRun(run: number): Promise<Map<string, Measured>> {
  console.log(`\nRun ${run}: starting the local stack (wrangler dev + devdb), ping every ${PING_INTERVAL_MS} ms…`);
  const stack = await startRealtimeStack({ pingIntervalMs: PING_INTERVAL_MS, pingTimeoutMs: PING_TIMEOUT_MS });
  const proxy = await countingProxy(new URL(stack.url));
  const results = new Map<string, Measured>();
  const mongo = new MongoClient(stack.databaseUri);
  try {
    const db = mongo.db(databaseName(stack.databaseUri, undefined));
    const riders = Array.from({ length: Math.max(...CLIENTS) }, (_, i) => ({
      _id: new ObjectId(),
      name: `Idle Rider ${i}`,
      email: `idle-${i}@bench.test`,
      role: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    }));
    await db.collection('users').insertMany(riders);
    const tokens = await Promise.all(riders.map((rider) => signSessionToken(claimsFor(rider), stack.jwtSecret)));

    // Warm the Worker and the shards once, so the first group does not pay for compiling them.
    const warm = await Promise.all(tokens.slice(0, 20).map((token) => openClientRetrying(proxy.url, token)));
    await pause(PING_INTERVAL_MS);
    for (const { feed } of warm) feed.io.engine.close();
    await pause(PING_INTERVAL_MS + PING_TIMEOUT_MS);

    const cpuBefore = workerdCpuSeconds(process.pid);
    await pause(WINDOW_MS);
    const baselineCpuMs = (workerdCpuSeconds(process.pid) - cpuBefore) * 1000;
    console.log(`  no client: workerd CPU ${baselineCpuMs.toFixed(0)} ms over the ${WINDOW_MS / 1000} s window`);

    for (const n of CLIENTS) {
      for (const { group, label, transports } of GROUPS) {
        const beforeConnect = proxy.counts();
        const clients: Awaited<ReturnType<typeof openClient>>[] = [];
        for (let i = 0; i < n; i += 25)
          clients.push(
            ...(await Promise.all(
              tokens.slice(i, Math.min(i + 25, n)).map((t) => openClientRetrying(proxy.url, t, transports)),
            )),
          );
        // A default client upgrades shortly after its handshake; the window starts once every upgrade had its chance.
        await pause(group === 'default' ? 2000 : 500);
        const connecting = minus(proxy.counts(), beforeConnect);
        let dropped = 0;
        const reasons = new Map<string, number>();
        const drop = (reason: string) => {
          dropped++;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        };
        for (const { feed } of clients) feed.on('disconnect', drop);

        const refusedConnecting = proxy.refusals();
        const countsBefore = proxy.counts();
        const cpuAt = workerdCpuSeconds(process.pid);
        await pause(WINDOW_MS);
        const cpuMs = (workerdCpuSeconds(process.pid) - cpuAt) * 1000 - baselineCpuMs;
        const idle = minus(proxy.counts(), countsBefore);
        const refusedIdle = proxy.refusals();
        if (Object.keys(refusedConnecting).length + Object.keys(refusedIdle).length)
          console.log(
            `  HTTP answers not 200: connecting ${JSON.stringify(refusedConnecting)}, idle ${JSON.stringify(refusedIdle)}`,
          );
        const onWebSocket = clients.filter(({ feed }) => feed.io.engine.transport.name === 'websocket').length;
        for (const { feed } of clients) {
          feed.off('disconnect', drop);
          // Closes the Engine.IO session itself, both namespaces with it.
          feed.io.engine.close();
        }
        // Closes reach the shards and held polls end before the next group.
        await pause(PING_INTERVAL_MS + PING_TIMEOUT_MS);

        const perClientMinute = (value: number) => (value / n / WINDOW_ROUNDS) * DEFAULT_ROUNDS_PER_MINUTE;
        const measured: Measured = {
          requests: perClientMinute(idle.polls + idle.posts + idle.otherHttp),
          polls: perClientMinute(idle.polls),
          posts: perClientMinute(idle.posts),
          upgrades: perClientMinute(idle.upgrades),
          cpuMs: perClientMinute(cpuMs),
          connectRequests: (connecting.polls + connecting.posts + connecting.otherHttp) / n,
          connectUpgrades: connecting.upgrades / n,
          dropped,
          onWebSocket,
        };
        if (dropped) console.log(`  dropped in the window, by reason: ${JSON.stringify(Object.fromEntries(reasons))}`);
        if (connecting.otherHttp)
          console.log(`  ${connecting.otherHttp} requests outside /socket.io/ while connecting`);
        results.set(`${n} ${group}`, measured);
        console.log(
          `  N=${n} ${label}: ${measured.requests.toFixed(2)} req (${measured.polls.toFixed(2)} GET, ${measured.posts.toFixed(2)} POST), ` +
            `${measured.upgrades.toFixed(2)} upgrades, ${measured.cpuMs.toFixed(2)} ms CPU per client-minute; ` +
            `connecting: ${measured.connectRequests.toFixed(1)} req + ${measured.connectUpgrades.toFixed(1)} upgrades per client; ` +
            `on WebSocket ${onWebSocket}/${n}, dropped ${dropped}`,
        );
      }
    }
    const failures = stack
      .output()
      .split('\n')
      .filter((line) => line.includes('realtime:'));
    if (failures.length) console.log(`  real-time failures the Worker logged: ${failures.length}`);
    // Anything wrangler said besides its request log (a reload of the Worker mid-run, an uncaught error).
    const other = stack
      .output()
      .split('\n')
      .filter((line) => line.trim() && !line.includes('[wrangler:info]'));
    for (const line of [...new Set(other)].slice(-15)) console.log(`  wrangler: ${line.slice(0, 300)}`);
    if (retried) console.log(`  clients opened again after a refused connect: ${retried}`);
    return results;
  } catch (error) {
    console.error(`wrangler dev said:\n${stack.output().split('\n').slice(-60).join('\n')}`);
    throw error;
  } finally {
    await mongo.close();
    await proxy.close();
    await stack.stop();
  }
}

const spread = (values: number[], digits: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${median.toFixed(digits)} [${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)}]`;
};

async function main() {
  const runs: Map<string, Measured>[] = [];
  for (let run = 1; run <= RUNS; run++) runs.push(await oneRun(run));

  console.log(
    `\nIdle cost per client and minute at the default ping cadence (25 s / 20 s), measured at ${PING_INTERVAL_MS} ms / ` +
      `${PING_TIMEOUT_MS} ms over ${WINDOW_ROUNDS} rounds and scaled by rounds (× ${DEFAULT_ROUNDS_PER_MINUTE} rounds a minute); ` +
      `workerd CPU net of the no-client window. Median [min–max] of ${RUNS} runs.`,
  );
  for (const n of CLIENTS) {
    console.log(`\nN = ${n}`);
    const of = (group: Group, field: keyof Measured) => runs.map((run) => run.get(`${n} ${group}`)![field]);
    const websocketCpu = of('websocket', 'cpuMs');
    for (const { group, label } of GROUPS) {
      const cpu = of(group, 'cpuMs');
      const cpuRatio = cpu.map((value, i) => value / websocketCpu[i]!);
      console.log(`  ${label}`);
      console.log(
        `    HTTP requests ${spread(of(group, 'requests'), 2)} (GET ${spread(of(group, 'polls'), 2)}, POST ${spread(of(group, 'posts'), 2)}), ` +
          `WebSocket upgrades ${spread(of(group, 'upgrades'), 2)}`,
      );
      console.log(
        `    workerd CPU ${spread(cpu, 2)} ms${group === 'websocket' ? '' : `, ${spread(cpuRatio, 1)}× (a)'s`}`,
      );
      console.log(
        `    connecting, per client: ${spread(of(group, 'connectRequests'), 1)} requests, ${spread(of(group, 'connectUpgrades'), 1)} upgrades; ` +
          `on WebSocket at the end ${spread(of(group, 'onWebSocket'), 0)}/${n}; dropped in the window ${spread(of(group, 'dropped'), 0)}`,
      );
    }
  }
}

await main();
