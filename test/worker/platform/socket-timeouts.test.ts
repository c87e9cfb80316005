import { env } from 'cloudflare:test';
import { connect, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RUNTIME_TIMERS } from '../../../durable-objects/idle-timer';
import {
  RUNTIME_SET_TIMEOUT,
  RUNTIME_UNREF_TIMER,
  repairSocketTimeouts,
} from '../../../durable-objects/socket-timeouts';

// The driver arms a socket's idle timeout for the handshake and disarms it with setTimeout(0)
// (durable-objects/socket-timeouts.ts): a disarmed timer must never fire, or long queries answer 503.

const { hostname, port } = new URL((env as { MONGODB_URI: string }).MONGODB_URI);

/** A connected socket to the dev database, repaired, with the times its 'timeout' events fired. */
async function connected() {
  repairSocketTimeouts();
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const timeouts: number[] = [];
  socket.on('timeout', () => timeouts.push(performance.now()));
  return { socket, timeouts };
}

/** Half a wire-protocol header: the server waits for the rest, so it never answers and only writes are activity. */
const write = (socket: Socket) =>
  new Promise<void>((resolve) => socket.write(new Uint8Array([0xff, 0, 0, 0]), () => resolve()));

/** Waits until `done` holds, checking every few milliseconds, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!done() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function timesOutAfterDisarming(): Promise<boolean> {
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let fired = false;
  socket.on('timeout', () => {
    fired = true;
  });
  socket.setTimeout(100);
  // Half a wire-protocol header: the server waits for the rest, so only the timer can end the wait.
  await new Promise<void>((resolve) => socket.write(new Uint8Array([0xff, 0, 0, 0]), () => resolve()));
  socket.setTimeout(0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  socket.destroy();
  return fired;
}

describe('socket idle timeouts in workerd', () => {
  it('a timeout disarmed with setTimeout(0) after a write never fires', async () => {
    repairSocketTimeouts();
    expect(await timesOutAfterDisarming()).toBe(false);
  });

  it("workerd's own timer refresh still loses the handle (when this fails, drop the repair)", async () => {
    repairSocketTimeouts();
    const proto = Socket.prototype as unknown as Record<string | symbol, unknown>;
    const repaired = { unref: proto._unrefTimer, set: proto.setTimeout };
    proto._unrefTimer = proto[RUNTIME_UNREF_TIMER];
    proto.setTimeout = proto[RUNTIME_SET_TIMEOUT];
    try {
      expect(await timesOutAfterDisarming()).toBe(true);
    } finally {
      proto._unrefTimer = repaired.unref;
      proto.setTimeout = repaired.set;
    }
  });

  it('an armed timeout still fires once the socket idles past it', async () => {
    repairSocketTimeouts();
    const socket = connect({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const fired = new Promise<boolean>((resolve) => {
      socket.once('timeout', () => resolve(true));
      setTimeout(() => resolve(false), 1000);
    });
    socket.setTimeout(100);
    socket.write(new Uint8Array([0xff, 0, 0, 0]));
    expect(await fired).toBe(true);
    socket.destroy();
  });

  it('a write counts as activity: the timeout fires only once the socket has idled that long after it', async () => {
    const { socket, timeouts } = await connected();
    const timeoutMs = 600;
    const armedAt = performance.now();
    socket.setTimeout(timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, timeoutMs / 3));
    const wroteAt = performance.now();
    await write(socket);
    await until(() => timeouts.length > 0, 5000);
    socket.destroy();
    // The write came before the armed timeout was due, so it must have moved the deadline.
    expect(wroteAt).toBeLessThan(armedAt + timeoutMs);
    expect(timeouts).toHaveLength(1);
    // A small allowance for the runtime's clock granularity; without the refresh it fires timeoutMs / 3 after arming.
    expect(timeouts[0]!).toBeGreaterThanOrEqual(wroteAt + timeoutMs - 50);
  });

  it('destroying an armed socket clears its pending timer, and no timeout fires', async () => {
    const { socket, timeouts } = await connected();
    const { set, clear } = RUNTIME_TIMERS;
    const made: unknown[] = [];
    const cleared: unknown[] = [];
    RUNTIME_TIMERS.set = (callback, ms) => {
      const handle = set(callback, ms);
      made.push(handle);
      return handle;
    };
    RUNTIME_TIMERS.clear = (handle) => {
      cleared.push(handle);
      clear(handle);
    };
    try {
      socket.setTimeout(100);
      expect(made).toHaveLength(1);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.destroy();
      await closed;
      expect(cleared).toEqual(made);
    } finally {
      RUNTIME_TIMERS.set = set;
      RUNTIME_TIMERS.clear = clear;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(timeouts).toEqual([]);
  });

  it('a timer that comes due as the socket is destroyed, before it closes, fires no timeout', async () => {
    const { socket, timeouts } = await connected();
    const { set } = RUNTIME_TIMERS;
    // The runtime timer only queues its check, so the test runs it between destroy() and the 'close' event.
    const due: (() => void)[] = [];
    RUNTIME_TIMERS.set = (callback, ms) => set(() => due.push(callback), ms);
    try {
      socket.setTimeout(50);
      await until(() => due.length > 0, 5000);
      expect(due).toHaveLength(1);
      let closed = false;
      socket.once('close', () => {
        closed = true;
      });
      socket.destroy();
      expect(closed).toBe(false);
      for (const check of due.splice(0)) check();
    } finally {
      RUNTIME_TIMERS.set = set;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(timeouts).toEqual([]);
  });

  it("clamps a timeout above 2^31-1 ms to that, with Node's TimeoutOverflowWarning, rather than firing at once", async () => {
    const { socket, timeouts } = await connected();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    const { set } = RUNTIME_TIMERS;
    const delays: number[] = [];
    RUNTIME_TIMERS.set = (callback, ms) => {
      delays.push(ms);
      return set(callback, ms);
    };
    process.on('warning', onWarning);
    try {
      socket.setTimeout(2 ** 32);
      expect(delays).toEqual([2 ** 31 - 1]);
      await write(socket);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(socket.timeout).toBe(2 ** 32);
      expect(timeouts).toEqual([]);
      await until(() => warnings.length > 0, 1000);
      expect(warnings).toEqual([
        'TimeoutOverflowWarning: 4294967296 does not fit into a 32-bit signed integer.\nTimer duration was truncated to 2147483647.',
      ]);
    } finally {
      RUNTIME_TIMERS.set = set;
      process.off('warning', onWarning);
      socket.destroy();
    }
  });
});
