import { Socket } from 'node:net';
import process from 'node:process';
import { IdleTimer, RUNTIME_TIMERS } from './idle-timer';

const repaired = Symbol.for('rider-service.socket-timeouts-repaired');
const idleTimer = Symbol.for('rider-service.socket-idle-timer');
/** Where the runtime's own methods are kept, so a test can tell when workerd no longer needs the repair. */
export const RUNTIME_UNREF_TIMER = Symbol.for('rider-service.runtime-unref-timer');
export const RUNTIME_SET_TIMEOUT = Symbol.for('rider-service.runtime-set-timeout');

/** The longest delay a timer takes: a signed 32-bit integer of milliseconds (Node's `TIMEOUT_MAX`). */
const TIMEOUT_MAX = 2 ** 31 - 1;

type RepairedSocket = Socket & {
  _unrefTimer?: () => void;
  _onTimeout?: () => void;
  _parentWrap?: RepairedSocket | null;
  [idleTimer]?: IdleTimer;
};

/** The socket's idle timer, made on first use; it stops with the socket. */
function timerOf(socket: RepairedSocket): IdleTimer {
  let timer = socket[idleTimer];
  if (!timer) {
    const made = new IdleTimer(RUNTIME_TIMERS, () => {
      if (!socket.destroyed) socket._onTimeout?.();
    });
    socket.once('close', () => made.stop());
    socket[idleTimer] = made;
    timer = made;
  }
  return timer;
}

/**
 * workerd's `node:net` loses a socket's idle timer on every read and write
 * (https://github.com/cloudflare/workerd/issues/7310: `_unrefTimer` stores `setTimeout`'s return value, the socket, in place of the timer handle), so
 * `socket.setTimeout(0)` clears nothing. The driver arms `connectTimeoutMS` during the handshake and
 * disarms it afterwards; with the bug the handshake's timer still fires, and any operation still
 * waiting for its reply 1.5 s after its connection opened fails as a network timeout (a 503), e.g. a
 * dashboard pipeline over a large collection. This gives sockets Node's behaviour through one
 * `IdleTimer` each (durable-objects/idle-timer.ts): `setTimeout` arms or disarms it, each read or
 * write counts as activity, and a cleared timeout stays cleared. It replaces workerd's timer per step
 * too, which re-created a runtime timer on every arm, disarm, read and write. Idempotent; the bug's
 * test (test/worker/platform/socket-timeouts.test.ts) says when workerd has fixed it.
 * Applied where clients are made: worker/platform/db/connection.ts and durable-objects/db-gateway.ts.
 */
export function repairSocketTimeouts(): void {
  // Node's own implementation is right; only workerd's needs the repair.
  const runtime = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (runtime !== 'Cloudflare-Workers') return;
  const proto = Socket.prototype as RepairedSocket & {
    [repaired]?: true;
    [RUNTIME_UNREF_TIMER]?: () => void;
    [RUNTIME_SET_TIMEOUT]?: Socket['setTimeout'];
  };
  if (typeof proto._unrefTimer !== 'function' || proto[repaired]) return;
  proto[RUNTIME_UNREF_TIMER] = proto._unrefTimer;
  proto[RUNTIME_SET_TIMEOUT] = proto.setTimeout;
  proto.setTimeout = function setIdleTimeout(this: RepairedSocket, msecs: number, callback?: () => void) {
    if (this.destroyed) return this;
    // Node's checks (timers.enroll): a finite, non-negative number of milliseconds.
    if (typeof msecs !== 'number') throw new TypeError('The "msecs" argument must be of type number.');
    if (!(msecs >= 0) || !Number.isFinite(msecs))
      throw new RangeError(
        `The value of "msecs" is out of range. It must be a non-negative finite number. Received ${msecs}`,
      );
    // Node keeps the armed value on the socket (read-only in its types, a plain property at run time).
    (this as { timeout?: number }).timeout = msecs;
    timerOf(this).arm(withinTimeoutMax(msecs));
    if (callback !== undefined) {
      if (msecs === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    return this;
  } as Socket['setTimeout'];
  proto._unrefTimer = function markActive(this: RepairedSocket) {
    for (let socket: RepairedSocket | null | undefined = this; socket; socket = socket._parentWrap) {
      socket[idleTimer]?.touch();
    }
  };
  proto[repaired] = true;
}

/** Node's `getTimerDuration`: a delay too long for a timer is truncated to the longest, with a warning. */
function withinTimeoutMax(msecs: number): number {
  if (msecs <= TIMEOUT_MAX) return msecs;
  process.emitWarning(
    `${msecs} does not fit into a 32-bit signed integer.\nTimer duration was truncated to ${TIMEOUT_MAX}.`,
    'TimeoutOverflowWarning',
  );
  return TIMEOUT_MAX;
}
