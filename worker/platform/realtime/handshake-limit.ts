import { positiveIntSetting } from '../config';
import type { Env } from '../env';
import { clientAddress } from '../http/client-address';
import { ApiError } from '../http/errors';
import { LIMITS } from '../limits';
import { recordRealtimeRefusal } from '../ops/metrics';

const { handshakeWindowMs } = LIMITS.realtime;

/**
 * Counts a new Engine.IO session (a polling handshake or a WebSocket opened without a session) against its client
 * address, in the rate-limiter object named for the address: a client's handshakes land on random shards, so only
 * an object outside them sees them all. 429 with Retry-After once the minute's allowance is spent.
 */
export async function takeHandshakeAllowance(env: Env, request: Request): Promise<void> {
  const max = positiveIntSetting(
    env,
    'REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE',
    LIMITS.realtime.handshakesPerAddress,
  );
  const address = clientAddress(env, request);
  const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`realtime-handshake:${address}`));
  const decision = await limiter.consume(max, handshakeWindowMs);
  if (!decision.allowed) {
    recordRealtimeRefusal(env, { reason: 'handshake-rate-limited', status: 429 });
    const wait = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    throw new ApiError(429, `Too many new real-time connections from this address. Try again in ${wait} seconds.`, {
      headers: { 'Retry-After': wait },
    });
  }
}
