import net from 'node:net';
import type { ConnectionCounts } from './commands/context.js';
import { errorReply, runCommand } from './commands/index.js';
import { CursorRegistry } from './cursors.js';
import { DevDbError } from './errors.js';
import { removeServerRecord, writeServerRecord } from './server-file.js';
import { Store } from './store.js';
import { sweepExpired } from './ttl.js';
import type { Doc } from './values.js';
import { encodeMsg, encodeReply, type Frame, FrameReader, OP_QUERY, parseRequest } from './wire.js';

export interface DevDbOptions {
  /** 0 picks an ephemeral port. Default 27018. */
  port?: number;
  host?: string;
  /** Persistence folder; undefined keeps everything in memory only. */
  dataDir?: string;
  /** TTL sweeper interval. Default 1000 ms. */
  ttlSweepMs?: number;
  /** Suppresses the ready line and warnings. */
  quiet?: boolean;
  /** Simulated network: every reply is held back this long (a round trip to a hosted cluster). Default 0. */
  latencyMs?: number;
  /** Simulated TCP+TLS+auth cost: the first reply on each new connection waits this much longer. Default 0. */
  handshakeMs?: number;
}

export interface DevDbHandle {
  port: number;
  uri: string;
  /** Changes the simulated network for replies from now on (bench/data-path.ts seeds fast, then measures slow). */
  setNetwork(network: { latencyMs?: number; handshakeMs?: number }): void;
  close(): Promise<void>;
}

const DEFAULT_PORT = 27018;
/** How far behind the OS page cache the disk may lag (power loss, not process death). */
const FSYNC_INTERVAL_MS = 1000;
const CURSOR_SWEEP_MS = 60_000;

interface Shared {
  store: Store;
  cursors: CursorRegistry;
  log: (msg: string) => void;
  connections: ConnectionCounts;
  latencyMs: number;
  handshakeMs: number;
}

/** The encoded reply to one message (undefined for `moreToCome`), or a promise of it for a command run in slices. */
function handleFrame(
  frame: Frame,
  shared: Shared,
  connectionId: number,
): Buffer | undefined | Promise<Buffer | undefined> {
  let reply: Doc | Promise<Doc>;
  const legacy = frame.opCode === OP_QUERY;
  let moreToCome = false;
  try {
    const req = parseRequest(frame);
    moreToCome = req.moreToCome;
    countOperation(shared.connections, Object.keys(req.command)[0] ?? '');
    reply = runCommand(req.command, {
      store: shared.store,
      cursors: shared.cursors,
      connectionId,
      db: req.db,
      connections: shared.connections,
    });
  } catch (err) {
    reply = errorReply(new DevDbError('FailedToParse', err instanceof Error ? err.message : String(err)));
  }
  const encode = (done: Doc): Buffer | undefined => {
    if (moreToCome) return undefined;
    try {
      return legacy ? encodeReply(frame.requestId, done) : encodeMsg(frame.requestId, done);
    } catch (err) {
      // e.g. a reply over the BSON size limit: report it rather than hang the client.
      const fallback = errorReply(err);
      return legacy ? encodeReply(frame.requestId, fallback) : encodeMsg(frame.requestId, fallback);
    }
  };
  return reply instanceof Promise ? reply.then(encode) : encode(reply);
}

const OPCOUNTER_OF: Record<string, 'insert' | 'query' | 'update' | 'delete' | 'getmore'> = {
  insert: 'insert',
  find: 'query',
  update: 'update',
  delete: 'delete',
  getMore: 'getmore',
};

function countOperation(counts: ConnectionCounts, name: string): void {
  counts.opcounters[OPCOUNTER_OF[name] ?? 'command'] += 1;
}

function serveConnection(socket: net.Socket, shared: Shared, connectionId: number): void {
  socket.setNoDelay(true);
  const reader = new FrameReader();
  const send = delayedSender(socket, shared);
  // A connection's messages run one after another, so its replies keep their order while one of them runs
  // in slices; other connections are served in the meantime.
  const backlog: Frame[] = [];
  let running = false;
  const serveBacklog = (): void => {
    while (!running && backlog.length > 0) {
      const out = handleFrame(backlog.shift()!, shared, connectionId);
      if (out instanceof Promise) {
        running = true;
        void out.then((done) => {
          running = false;
          if (done && !socket.destroyed) send(done);
          serveBacklog();
        });
      } else if (out) {
        send(out);
      }
    }
  };
  socket.on('data', (chunk: Buffer) => {
    let frames: Frame[];
    try {
      frames = reader.push(chunk);
    } catch (err) {
      // A bad length prefix leaves no way to find the next message boundary.
      shared.log(`devdb: closing connection ${connectionId}: ${(err as Error).message}`);
      socket.destroy();
      return;
    }
    backlog.push(...frames);
    serveBacklog();
  });
  // Clients vanishing mid-conversation is routine; the socket just closes.
  socket.on('error', () => {});
}

/**
 * Writes replies after the simulated network delay (--latency-ms, plus --handshake-ms on the
 * connection's first reply), never reordering them.
 */
function delayedSender(socket: net.Socket, shared: Shared): (out: Buffer) => void {
  let first = true;
  let lastDue = 0;
  return (out) => {
    const delay = shared.latencyMs + (first ? shared.handshakeMs : 0);
    first = false;
    if (delay === 0 && lastDue <= Date.now()) {
      socket.write(out);
      return;
    }
    lastDue = Math.max(Date.now() + delay, lastDue);
    setTimeout(() => socket.destroyed || socket.write(out), lastDue - Date.now());
  };
}

function everyMs(ms: number, log: (msg: string) => void, task: () => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    try {
      task();
    } catch (err) {
      log(`devdb: background task failed: ${(err as Error).stack ?? String(err)}`);
    }
  }, ms);
  timer.unref();
  return timer;
}

export async function startDevDb(opts: DevDbOptions = {}): Promise<DevDbHandle> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.quiet ? () => {} : (msg: string) => process.stderr.write(`${msg}\n`);
  const store = new Store({ dataDir: opts.dataDir, warn: log });
  const sockets = new Set<net.Socket>();
  // serverStatus.connections, as MongoDB reports it: open now, and accepted since start.
  const connections: ConnectionCounts = {
    current: () => sockets.size,
    totalCreated: 0,
    opcounters: { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 },
  };
  const shared: Shared = {
    store,
    cursors: new CursorRegistry(),
    log,
    connections,
    latencyMs: opts.latencyMs ?? 0,
    handshakeMs: opts.handshakeMs ?? 0,
  };
  let nextConnectionId = 1;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    connections.totalCreated += 1;
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, shared, nextConnectionId++);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? DEFAULT_PORT, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    store.close();
    throw err;
  }
  server.on('error', (err) => log(`devdb: server error: ${err.message}`));

  const timers = [
    everyMs(opts.ttlSweepMs ?? 1000, log, () => sweepExpired(store)),
    everyMs(FSYNC_INTERVAL_MS, log, () => store.sync()),
    everyMs(CURSOR_SWEEP_MS, log, () => shared.cursors.sweep()),
  ];
  const port = (server.address() as net.AddressInfo).port;
  const uri = `mongodb://${host}:${port}`;
  if (store.dataDir !== undefined) writeServerRecord(store.dataDir, { pid: process.pid, uri });
  if (!opts.quiet) process.stdout.write(`devdb ready ${uri} data=${store.dataDir ?? 'memory'}\n`);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      for (const t of timers) clearInterval(t);
      server.close(() => {
        try {
          shared.cursors.clear();
          if (store.dataDir !== undefined) removeServerRecord(store.dataDir, process.pid);
          store.close();
          resolve();
        } catch (err) {
          reject(err);
        }
      });
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };
  const setNetwork = (network: { latencyMs?: number; handshakeMs?: number }): void => {
    shared.latencyMs = network.latencyMs ?? shared.latencyMs;
    shared.handshakeMs = network.handshakeMs ?? shared.handshakeMs;
  };
  return { port, uri, close, setNetwork };
}
