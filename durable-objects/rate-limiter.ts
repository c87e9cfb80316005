import { DurableObject } from 'cloudflare:workers';

/** Outcome of asking to start an attempt. */
export type AttemptDecision = { allowed: true; ticket: string } | { allowed: false; retryAfterMs: number };

interface LimiterState {
  /** Times of failed attempts still inside the window. */
  failures: number[];
  /** Attempts under way: counted against the limit so a burst cannot slip past it. */
  pending: Record<string, number>;
  /** The window the last caller asked for, so the cleanup alarm can prune with it. */
  windowMs: number;
}

// An attempt that never reports back (its Worker died) stops counting after this long.
const PENDING_TTL_MS = 30_000;

/**
 * Counts failed attempts for one subject (an email or a client IP): one object per subject,
 * so every Worker instance sees the same count. Successful attempts do not count; once the
 * limit is reached every attempt, right or wrong, is refused until the oldest failure
 * leaves the window.
 */
export class RateLimiter extends DurableObject {
  private state: LimiterState = { failures: [], pending: {}, windowMs: 0 };

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.state = (await ctx.storage.get<LimiterState>('state')) ?? this.state;
    });
  }

  /** Reserves an attempt, or says how long until one is allowed. */
  async begin(maxFailures: number, windowMs: number): Promise<AttemptDecision> {
    const now = Date.now();
    this.prune(now, windowMs);
    const { failures, pending } = this.state;
    const inFlight = Object.keys(pending).length;
    if (failures.length >= maxFailures) {
      return { allowed: false, retryAfterMs: failures[failures.length - maxFailures]! + windowMs - now };
    }
    if (failures.length + inFlight >= maxFailures) {
      return { allowed: false, retryAfterMs: 1000 };
    }
    const ticket = crypto.randomUUID();
    pending[ticket] = now;
    await this.save(windowMs);
    return { allowed: true, ticket };
  }

  /** Settles a reserved attempt; only failures stay on the count. */
  async finish(ticket: string, failed: boolean, windowMs: number): Promise<void> {
    if (!(ticket in this.state.pending)) return;
    delete this.state.pending[ticket];
    if (failed) this.state.failures.push(Date.now());
    await this.save(windowMs);
  }

  /**
   * A plain request-rate limit (companion chat, event submissions, registration): every allowed call counts, kept in
   * `failures`, the list this object prunes by window; a refused call does not count.
   */
  async consume(
    maxCalls: number,
    windowMs: number,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
    const now = Date.now();
    this.prune(now, windowMs);
    const { failures } = this.state;
    if (failures.length >= maxCalls) {
      return { allowed: false, retryAfterMs: failures[failures.length - maxCalls]! + windowMs - now };
    }
    failures.push(now);
    await this.save(windowMs);
    return { allowed: true };
  }

  override async alarm(): Promise<void> {
    this.prune(Date.now(), this.state.windowMs);
    if (!this.state.failures.length && !Object.keys(this.state.pending).length) {
      await this.ctx.storage.deleteAll();
    }
  }

  private prune(now: number, windowMs: number): void {
    const { failures, pending } = this.state;
    this.state.failures = failures.filter((at) => at > now - windowMs);
    for (const [ticket, at] of Object.entries(pending)) {
      if (at <= now - PENDING_TTL_MS) delete pending[ticket];
    }
  }

  private async save(windowMs: number): Promise<void> {
    this.state.windowMs = windowMs;
    await this.ctx.storage.put('state', this.state);
    // Forget the subject once nothing in it can matter any more.
    const last = Math.max(0, ...this.state.failures, ...Object.values(this.state.pending));
    await this.ctx.storage.setAlarm(last + Math.max(windowMs, PENDING_TTL_MS) + 1000);
  }
}
