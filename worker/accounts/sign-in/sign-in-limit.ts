import { positiveIntSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';

/** A reserved attempt, or how long the caller must wait. */
export type SignInAttempt =
  // settle() reports the outcome; only failures count toward the limit.
  { allowed: true; settle(failed: boolean): Promise<void> } | { allowed: false; retryAfterSeconds: number };

const { windowMs } = LIMITS.signIn;

/**
 * Reserves a sign-in attempt against the email and the client address, each with its own
 * threshold (worker/platform/limits.ts says why they differ) and each counted by its own Durable
 * Object, so all Worker instances share the count.
 */
async function beginSignInAttempt(env: Env, email: string, address: string): Promise<SignInAttempt> {
  const subjects = [
    { key: `email:${email}`, maxFailures: LIMITS.signIn.maxFailuresPerEmail },
    {
      key: `ip:${address}`,
      maxFailures: positiveIntSetting(env, 'SIGN_IN_MAX_FAILURES_PER_ADDRESS', LIMITS.signIn.maxFailuresPerAddress),
    },
  ];
  const limiters = subjects.map(({ key }) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`sign-in:${key}`)));
  const decisions = await Promise.all(limiters.map((limiter, i) => limiter.begin(subjects[i]!.maxFailures, windowMs)));
  const settle = (failed: boolean) =>
    Promise.all(
      decisions.map((decision, i) =>
        decision.allowed ? limiters[i]!.finish(decision.ticket, failed, windowMs) : undefined,
      ),
    ).then(() => undefined);

  const waits = decisions.flatMap((decision) => (decision.allowed ? [] : [decision.retryAfterMs]));
  if (waits.length) {
    await settle(false);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) };
  }
  return { allowed: true, settle };
}

/**
 * Runs a password check under the sign-in limit: 429 with Retry-After while the email or the client address is
 * limited, else `check` runs and only its `true` (the password was wrong) counts as a failure; an error it throws
 * (the database down) settles as no failure. Every route that takes a password goes through here, so none is a
 * way around the limit. Answers whether the password was wrong.
 */
export async function underSignInLimit(
  env: Env,
  email: string,
  address: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const attempt = await beginSignInAttempt(env, email, address);
  if (!attempt.allowed) {
    const wait = String(attempt.retryAfterSeconds);
    throw new ApiError(429, `Too many failed sign-in attempts. Try again in ${wait} seconds.`, {
      headers: { 'Retry-After': wait },
    });
  }
  let failed = false;
  try {
    failed = await check();
  } finally {
    await attempt.settle(failed);
  }
  return failed;
}
