import { env } from 'cloudflare:test';
import { connect, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  RUNTIME_SET_TIMEOUT,
  RUNTIME_UNREF_TIMER,
  repairSocketTimeouts,
} from '../../../durable-objects/socket-timeouts';

// The driver arms a socket's idle timeout for the handshake and disarms it with setTimeout(0)
// (durable-objects/socket-timeouts.ts): a disarmed timer must never fire, or long queries answer 503.

const { hostname, port } = new URL((env as { MONGODB_URI: string }).MONGODB_URI);

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
});
