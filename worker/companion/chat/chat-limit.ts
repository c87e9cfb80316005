import { positiveIntSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';

/**
 * Counts a rider's companion message against their per-minute allowance (model calls cost
 * money), in the rate-limiter object named for the rider, so every Worker instance shares it.
 * Returns the seconds to wait when the allowance is spent.
 */
export async function takeChatAllowance(env: Env, userId: string): Promise<{ retryAfterSeconds: number } | null> {
  const max = positiveIntSetting(env, 'COMPANION_MESSAGES_PER_MINUTE', LIMITS.companion.messagesPerMinute);
  const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`companion-chat:${userId}`));
  const decision = await limiter.consume(max, LIMITS.companion.rateWindowMs);
  return decision.allowed ? null : { retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) };
}
