/** The clock and timers an idle timer runs on: the runtime's in production, fake ones in unit tests. */
export interface TimerHost {
  now(): number;
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const RUNTIME_TIMERS: TimerHost = {
  now: () => performance.now(),
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Node's socket idle timeout (`socket.setTimeout`: fire once the socket has been idle that long, counted
 * again from each read and write) kept with at most one pending runtime timer. Activity only moves a
 * timestamp; when the timer comes due it checks how long the socket has really been idle and waits out the
 * rest. The driver arms and disarms the timeout around every command and each read and write counts as
 * activity, so re-creating a runtime timer each time (workerd's way) cost a clear and a set per step:
 * several per database call, about 6 % of the gateway object's CPU on the message path.
 */
export class IdleTimer {
  private handle: unknown = null;
  /** When the pending timer fires; it is kept when a later deadline comes, as its check waits out the rest. */
  private dueAt = 0;
  /** The start of the current idle span: the last activity, or the arming. */
  private since = 0;
  /** 0 while disarmed. */
  private timeoutMs = 0;

  constructor(
    private readonly host: TimerHost,
    private readonly onIdle: () => void,
  ) {}

  /** Node's `setTimeout(ms)`: the idle span starts now; 0 disarms. */
  arm(ms: number): void {
    this.timeoutMs = ms;
    if (ms === 0) return;
    this.since = this.host.now();
    this.schedule(ms);
  }

  /** A read or write. After a timeout has fired, activity arms it again, as Node's refresh does. */
  touch(): void {
    if (this.timeoutMs === 0) return;
    this.since = this.host.now();
    if (this.handle === null) this.schedule(this.timeoutMs);
  }

  /** The socket is gone: nothing fires any more. */
  stop(): void {
    this.timeoutMs = 0;
    if (this.handle !== null) this.host.clear(this.handle);
    this.handle = null;
  }

  private schedule(delay: number): void {
    const dueAt = this.host.now() + delay;
    if (this.handle !== null) {
      if (this.dueAt <= dueAt) return;
      this.host.clear(this.handle);
    }
    this.dueAt = dueAt;
    this.handle = this.host.set(() => this.due(), delay);
  }

  private due(): void {
    this.handle = null;
    if (this.timeoutMs === 0) return;
    const idle = this.host.now() - this.since;
    if (idle >= this.timeoutMs) this.onIdle();
    else this.schedule(this.timeoutMs - idle);
  }
}
