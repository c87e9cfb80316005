/**
 * What one Durable Object instance has carried since it started: requests, wall time, and the CPU its
 * handlers spent before their first await, plus the busiest one-second window. Kept in memory only
 * (an instance that restarts starts again from zero; `startedAt` says so), read by the scale harness
 * through an admin-only route (worker/platform/object-counters, docs/scale.md). Two clock reads and a few
 * additions per request: cheap enough to stay on in production.
 *
 * Why "CPU before the first await": a handler's JavaScript runs without interruption until it waits,
 * so that span is CPU time; later spans (after a storage or RPC reply) are not separated from the wait.
 * The fan-out paths (`broadcast`, `deliver`) do their work before any await, so they are counted in full;
 * for the others this is a lower bound. Local workerd's clock runs while JavaScript runs; deployed Workers
 * advance it only at I/O (Cloudflare's timer mitigation), so there the CPU figure reads about 0: use the
 * dashboard's CPU metrics instead.
 */
export interface CounterSnapshot {
  /** Requests handled: RPC calls, fetches, WebSocket messages that woke the object, alarms. */
  requests: number;
  /** Sum over requests of the time from start to settle, waits included. */
  wallMs: number;
  /** Sum over requests of the time their JavaScript ran before its first await. */
  cpuMs: number;
  /** Most requests that started within one wall-clock second. */
  peakPerSecond: number;
  /** When this instance started counting (ms since the epoch). */
  startedAt: number;
}

export class ObjectCounters {
  private requests = 0;
  private wallMs = 0;
  private cpuMs = 0;
  private peakPerSecond = 0;
  private second = -1;
  private inSecond = 0;
  private readonly startedAt: number;

  /** `clock` is a monotonic millisecond clock and `wallClock` the epoch clock; tests pass fake ones. */
  constructor(
    private readonly clock: () => number = () => performance.now(),
    private readonly wallClock: () => number = Date.now,
  ) {
    this.startedAt = wallClock();
  }

  /** Runs one request's handler and counts it; its result or failure passes through unchanged. */
  track<T>(handler: () => Promise<T> | T): Promise<T> {
    const start = this.clock();
    this.started();
    let pending: Promise<T> | T;
    try {
      pending = handler();
    } catch (error) {
      this.finished(start, this.clock());
      return Promise.reject(error);
    }
    const firstAwait = this.clock();
    this.cpuMs += firstAwait - start;
    if (!(pending instanceof Promise)) {
      this.wallMs += firstAwait - start;
      return Promise.resolve(pending);
    }
    return pending.finally(() => {
      this.wallMs += this.clock() - start;
    });
  }

  snapshot(): CounterSnapshot {
    return {
      requests: this.requests,
      wallMs: this.wallMs,
      cpuMs: this.cpuMs,
      peakPerSecond: this.peakPerSecond,
      startedAt: this.startedAt,
    };
  }

  private started(): void {
    this.requests += 1;
    const second = Math.floor(this.wallClock() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.inSecond = 0;
    }
    this.inSecond += 1;
    if (this.inSecond > this.peakPerSecond) this.peakPerSecond = this.inSecond;
  }

  private finished(start: number, end: number): void {
    this.cpuMs += end - start;
    this.wallMs += end - start;
  }
}
