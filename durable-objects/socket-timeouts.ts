import { Socket } from 'node:net';

const repaired = Symbol.for('rider-service.socket-timeouts-repaired');
/** Where the runtime's own `_unrefTimer` is kept, so a test can tell when workerd no longer needs the repair. */
export const RUNTIME_UNREF_TIMER = Symbol.for('rider-service.runtime-unref-timer');

/**
 * workerd's `node:net` loses a socket's idle timer on every read and write (cloudflare/workerd#7310:
 * `_unrefTimer` stores `setTimeout`'s return value, the socket, in place of the timer handle), so
 * `socket.setTimeout(0)` clears nothing. The driver arms `connectTimeoutMS` during the handshake and
 * disarms it afterwards; with the bug the handshake's timer still fires, and any operation still
 * waiting for its reply 1.5 s after its connection opened fails as a network timeout (a 503), e.g. a
 * dashboard pipeline over a large collection. This restores Node's behaviour: each read or write
 * re-arms the one timer through `setTimeout`, which keeps its handle, and a cleared timeout stays
 * cleared. Idempotent; remove once workerd ships the fix (test/worker/platform/socket-timeouts.test.ts says when).
 * Applied where clients are made: worker/platform/db/connection.ts and durable-objects/db-gateway.ts.
 */
export function repairSocketTimeouts(): void {
  // Node's own implementation is right; only workerd's needs the repair.
  const runtime = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (runtime !== 'Cloudflare-Workers') return;
  const proto = Socket.prototype as Socket & {
    _unrefTimer?: () => void;
    [repaired]?: true;
    [RUNTIME_UNREF_TIMER]?: () => void;
  };
  if (typeof proto._unrefTimer !== 'function' || proto[repaired]) return;
  proto[RUNTIME_UNREF_TIMER] = proto._unrefTimer;
  proto._unrefTimer = function refreshIdleTimer(this: Socket & { _parentWrap?: Socket | null }) {
    for (let socket: typeof this | null | undefined = this; socket; socket = socket._parentWrap) {
      if (socket.timeout && typeof socket.setTimeout === 'function') socket.setTimeout(socket.timeout);
    }
  };
  proto[repaired] = true;
}
