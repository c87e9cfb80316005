import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Miniflare } from 'miniflare';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { startDevDb } from '../../devdb/src/server';
import type { ServerEvent, ServerEventName } from '../../durable-objects/realtime-events';
import type { DirectMetrics } from '../../scripts/workerd-direct-args';
import { directOptions, type WorkerBuild } from '../../scripts/workerd-direct-options';
import { freePort, stopProcess } from '../e2e/processes';
import { throwawayDir } from './throwaway-dir';

// The real-time tests run the Worker in workerd and speak to it over TCP with an unmodified socket.io-client,
// since the test pool cannot host a Node client. Tests serve one deploy bundle built for the run (`build`);
// benches start `wrangler dev` (as `npm run dev` does) or the direct runner.

const JWT_SECRET = 'realtime-test-secret-not-used-anywhere-else';

export interface RealtimeStackOptions {
  /** Engine.IO ping cadence the rooms announce; short so a test can watch several intervals. */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  /** More Worker settings, e.g. EXPO_PUSH_URL pointing at a stand-in. */
  vars?: Record<string, string>;
  /**
   * The address the Worker reaches the dev database at, given its own (no trailing slash): e.g. a proxy
   * that a bench cuts to make the database unreachable (bench/scale/run.ts).
   */
  routeDatabase?: (devdbUri: string) => Promise<string>;
  /**
   * Serve the Worker through Miniflare's own server (scripts/workerd-direct.ts) instead of `wrangler dev`, whose
   * proxy relays every request and frame through a second workerd: what production has no counterpart of.
   */
  direct?: boolean;
  /**
   * Serve this bundle through Miniflare in this process, with no proxy and no bundling of its own: what the test
   * files do (test/support/stack-build-setup.ts builds it once per run).
   */
  build?: WorkerBuild;
  /**
   * `wrangler dev --log-level` for either runner: `warn` leaves out the runner's line per request and the Worker's
   * console lines but its warnings and errors (each one printed is a write by the runner and a wake-up of this process).
   */
  logLevel?: 'warn' | 'info';
  /** The direct runner's `--metrics` (scripts/workerd-direct-args.ts): a bench of the request's cost discards them. */
  metrics?: DirectMetrics;
  /**
   * `wrangler dev`'s local trace collector (X_LOCAL_OBSERVABILITY, on in wrangler by default): every invocation of the
   * Worker and its objects streamed, with its spans, to a trace store on disk. Off unless asked for, here or by
   * X_LOCAL_OBSERVABILITY=true in the environment (docs/data-path.md).
   */
  localObservability?: boolean;
  /**
   * The direct runner without workerd's DevTools inspector: an isolate open to one is not the one production runs,
   * so a bench comparing Workers gives none an inspector unless it profiles. `wrangler dev` always has one.
   */
  noInspector?: boolean;
  /**
   * Another checkout of the project whose Worker the process serves (its own scripts, build and dependencies), for
   * a bench measuring the project beside an earlier commit in the same rounds.
   */
  checkout?: string;
}

export async function startRealtimeStack(options: RealtimeStackOptions = {}) {
  const devdb = await startDevDb({ port: 0, quiet: true });
  const port = await freePort();
  const devdbUri = devdb.uri.replace(/\/$/, '');
  const reachedAt = options.routeDatabase ? await options.routeDatabase(devdbUri) : devdbUri;
  const vars = {
    MONGODB_URI: `${reachedAt}/realtime-${crypto.randomUUID().slice(0, 8)}`,
    JWT_SECRET,
    // Tests and benches register every rider from this one address, far past the hourly defaults.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000000',
    REGISTRATIONS_PER_HOUR: '1000000',
    // ...and open every socket from it: the benches' thousands of clients, far past the per-minute handshake default.
    REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE: '1000000',
    ...(options.pingIntervalMs ? { REALTIME_PING_INTERVAL_MS: String(options.pingIntervalMs) } : {}),
    ...(options.pingTimeoutMs ? { REALTIME_PING_TIMEOUT_MS: String(options.pingTimeoutMs) } : {}),
    ...options.vars,
  };
  // Durable Object state in memory where there is room: on disk, each presence write waits for a sync.
  const state = throwawayDir('rider-realtime-');
  /** What the stack holds besides the Worker: its database and its state folder (in memory, often). */
  const release = async () => {
    await devdb.close();
    rmSync(state, { recursive: true, force: true });
  };
  let output = '';
  const worker = await (options.build
    ? serveBuild(options.build, { port, state, vars }, options.logLevel ?? 'warn', (chunk) => (output += chunk))
    : startWorkerProcess(options, { port, state, vars }, (chunk) => (output += chunk))
  ).catch(async (error) => {
    // A stack that never started is never stopped: what it holds goes now.
    await release();
    throw error;
  });
  const url = `http://127.0.0.1:${port}`;
  const sockets: Socket[] = [];

  const api = async (
    path: string,
    init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const res = await fetch(`${url}/api${path}`, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { 'x-auth-token': init.token } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  let riders = 0;
  /** A new account: its id and session token. */
  const rider = async (name = 'Rider') => {
    const email = `rider-${++riders}-${crypto.randomUUID().slice(0, 6)}@realtime.test`;
    const { status, body } = await api('/users', { body: { name, email, password: 'realtime-password' } });
    if (status !== 201) throw new Error(`register answered ${status}: ${JSON.stringify(body)}`);
    return { id: body.user._id as string, token: body.token as string };
  };

  /** A socket.io-client v4 socket on a namespace, exactly as the apps open one. */
  const connect = (namespace: string, opts: Partial<ManagerOptions & SocketOptions> = {}) => {
    const socket = io(`${url}${namespace}`, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      ...opts,
    });
    sockets.push(socket);
    return socket;
  };

  return {
    url,
    /** The process serving the Worker (wrangler dev, the direct runner, or this one); workerd runs under it. */
    pid: worker.pid,
    /** The Worker's database and signing secret, for a bench that seeds riders directly. */
    databaseUri: vars.MONGODB_URI,
    /** What the Worker printed so far, for a failure report. */
    output: () => output,
    jwtSecret: JWT_SECRET,
    /** workerd's DevTools inspector, for a bench that profiles the Worker (bench/isolate-profile.ts). */
    inspectorPort: worker.inspectorPort,
    /** The deployed bundle's source map, where this stack knows it (the direct runner, a given build), for a profile. */
    sourceMap: () => {
      const outdir = options.build?.outdir ?? /Bundle in (\S+)/.exec(output)?.[1];
      return outdir ? `${outdir}/index.js.map` : undefined;
    },
    api,
    rider,
    connect,
    async stop() {
      for (const socket of sockets) socket.disconnect();
      // Let the closes reach the Worker before it stops, so none is cut mid-proxy.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await worker.stop();
      await release();
    },
  };
}

export type RealtimeStack = Awaited<ReturnType<typeof startRealtimeStack>>;

interface WorkerPlace {
  port: number;
  /** Where the Worker keeps its Durable Objects' storage. */
  state: string;
  vars: Record<string, string>;
}

/**
 * The built Worker in workerd through Miniflare, under this process; its logs go to `log`. Miniflare's own line per
 * request prints at `info` only: a test run leaves it out unless a test asks for it.
 */
async function serveBuild(
  build: WorkerBuild,
  place: WorkerPlace,
  logLevel: 'warn' | 'info',
  log: (chunk: string) => void,
) {
  const mf = new Miniflare(
    directOptions(
      build,
      {
        host: '127.0.0.1',
        port: place.port,
        persistTo: place.state,
        inspectorPort: undefined,
        logLevel,
        metrics: 'stand-in',
        vars: place.vars,
      },
      {
        handleStructuredLogs({ message }) {
          log(`${message}\n`);
        },
      },
    ),
  );
  await mf.ready;
  return { stop: () => mf.dispose(), pid: process.pid, inspectorPort: undefined };
}

/** `wrangler dev`, or the direct runner, as a process of its own, once it is ready. */
async function startWorkerProcess(options: RealtimeStackOptions, place: WorkerPlace, log: (chunk: string) => void) {
  // An inspector port of its own: wrangler's default (9229) is taken by whichever stack started first, and a
  // second wrangler dev binding it at the same moment dies ("Address already in use").
  const inspectorPort = options.noInspector && options.direct ? undefined : await freePort();
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(place.port)];
  if (inspectorPort) args.push('--inspector-port', String(inspectorPort));
  args.push('--persist-to', place.state);
  if (options.logLevel) args.push('--log-level', options.logLevel);
  if (options.metrics && options.direct) args.push('--metrics', options.metrics);
  for (const [name, value] of Object.entries(place.vars)) args.push('--var', `${name}:${value}`);
  const [command, ...prefix] = options.direct
    ? [process.execPath, '--import', 'tsx', 'scripts/workerd-direct.ts']
    : ['node_modules/.bin/wrangler'];
  const worker = spawn(command!, [...prefix, ...args], {
    cwd: options.checkout,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_SEND_METRICS: 'false',
      X_LOCAL_OBSERVABILITY: String(options.localObservability ?? process.env.X_LOCAL_OBSERVABILITY === 'true'),
    },
  });
  // A stack whose start was given up (a hook that timed out, a bench that threw) is never stopped by its caller;
  // left running, each such wrangler and its workerd kept gigabytes and a core busy after the run had ended.
  const stopOnExit = () => worker.kill('SIGTERM');
  process.once('exit', stopOnExit);
  let output = '';
  worker.stderr!.on('data', (chunk: Buffer) => log(chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    // wrangler prints `Ready on` at `info` only: below it, the first answer on the port says it serves.
    const answering = setInterval(() => {
      fetch(`http://127.0.0.1:${place.port}/`).then(ready, () => undefined);
    }, 250);
    let started = false;
    const ready = () => {
      started = true;
      clearInterval(answering);
      resolve();
    };
    worker.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      log(text);
      // Read for the ready line until the stack serves, never after: the whole output read anew on every chunk grew
      // with the run, and a bench's clients share this process.
      if (started) return;
      output += text;
      if (/Ready on/.test(output)) ready();
    });
    worker.on('exit', (code) => {
      clearInterval(answering);
      reject(new Error(`wrangler dev exited with ${code}:\n${output}`));
    });
  });
  const stop = () => {
    process.off('exit', stopOnExit);
    return stopProcess(worker);
  };
  return { stop, pid: worker.pid!, inspectorPort };
}

/** Resolves once the socket has joined its namespace, or rejects with the server's connect_error. */
export function joined(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The payload of a server event, by name (durable-objects/realtime-events.ts). */
type Payloads = { [Event in ServerEvent as Event['name']]: Event['payload'] };
export type PayloadOf<E extends ServerEventName> = Payloads[E];

/** The socket as a plain emitter: payloads are typed by event name below, not by socket.io-client's generics. */
type Listening = {
  on(event: string, listener: (payload: unknown) => void): void;
  once(event: string, listener: (payload: unknown) => void): void;
  off(event: string, listener: (payload: unknown) => void): void;
};

/** The next `event` on the socket, or a failure after `ms`. */
export function next<E extends ServerEventName>(socket: Socket, event: E, ms = 5000): Promise<PayloadOf<E>> {
  const emitter = socket as unknown as Listening;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, on);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const on = (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload as PayloadOf<E>);
    };
    emitter.once(event, on);
  });
}

/** Collects every `event` the socket receives, to prove later that one never came. */
export function record<E extends ServerEventName>(socket: Socket, event: E): PayloadOf<E>[] {
  const seen: PayloadOf<E>[] = [];
  (socket as unknown as Listening).on(event, (payload) => seen.push(payload as PayloadOf<E>));
  return seen;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
