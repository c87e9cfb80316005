import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { LIMITS } from '../limits';

export interface SignInAttempt {
  /** Reports the outcome; only failures count toward the limit. */
  settle(failed: boolean): Promise<void>;
}

const { maxFailures, windowMs } = LIMITS.signIn;

/**
 * Reserves a sign-in attempt against every subject it is limited by (the email and the
 * client IP), each counted by its own Durable Object so all Worker instances share it.
 * Refused: 429 with `Retry-After` in seconds.
 */
export async function beginSignInAttempt(env: Env, subjects: string[]): Promise<SignInAttempt> {
  const limiters = subjects.map((subject) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`sign-in:${subject}`)));
  const decisions = await Promise.all(limiters.map((limiter) => limiter.begin(maxFailures, windowMs)));
  const settle = (failed: boolean) =>
    Promise.all(
      decisions.map((decision, i) =>
        decision.allowed ? limiters[i]!.finish(decision.ticket, failed, windowMs) : undefined,
      ),
    ).then(() => undefined);

  const refusals = decisions.filter((d) => !d.allowed);
  if (refusals.length) {
    await settle(false);
    const retryAfterSeconds = Math.max(1, Math.ceil(Math.max(...refusals.map((d) => d.retryAfterMs)) / 1000));
    throw new ApiError(429, `Too many failed sign-in attempts. Try again in ${retryAfterSeconds} seconds.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
  return { settle };
}

/** The client's address as Cloudflare reports it; requests without one share a bucket. */
export function clientIp(header: (name: string) => string | undefined): string {
  return header('cf-connecting-ip')?.trim() || 'unknown';
}
