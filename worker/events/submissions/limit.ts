import { positiveIntSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';

/**
 * Counts a submission against the rider's allowance (EVENT_SUBMISSIONS_PER_DAY per rolling 24
 * hours), in the rate-limiter object named for the rider, so every Worker instance shares it.
 * Only a valid submission counts: the route calls this after validation.
 */
export async function takeSubmitAllowance(env: Env, userId: string): Promise<void> {
  const max = positiveIntSetting(env, 'EVENT_SUBMISSIONS_PER_DAY', LIMITS.events.submissionsPerDay);
  const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`event-submit:${userId}`));
  const decision = await limiter.consume(max, LIMITS.events.submissionWindowMs);
  if (!decision.allowed) {
    const wait = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new ApiError(429, `At most ${max} event submissions a day; try again in ${wait} seconds.`, {
      headers: { 'Retry-After': String(wait) },
    });
  }
}
