import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { addressNetwork } from '../../accounts/sign-in/address-network';
import type { AppEnv } from '../../platform/app-env';
import { positiveIntSetting } from '../../platform/config';
import { clientAddress } from '../../platform/http/client-address';
import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';

const { windowMs } = LIMITS.riderSearch;

/**
 * Counts one rider search against the rider's allowance, then, within it, against the client address's, each in
 * its rate-limiter object (an IPv6 address by its /64) so every Worker instance shares the count. Rider first: a rider refused for their own
 * searches costs one call and uses up nothing of the address that riders behind it share.
 */
async function takeSearchAllowance(c: Context<AppEnv>): Promise<void> {
  const { env } = c;
  const limiter = (name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
  const perRider = positiveIntSetting(env, 'RIDER_SEARCHES_PER_MINUTE', LIMITS.riderSearch.perRider);
  const own = await limiter(`rider-search:rider:${c.var.user._id}`).consume(perRider, windowMs);
  if (!own.allowed) throw tooMany(own.retryAfterMs);
  const perAddress = positiveIntSetting(env, 'RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE', LIMITS.riderSearch.perAddress);
  const address = await limiter(`rider-search:address:${addressNetwork(clientAddress(env, c.req.raw))}`).consume(
    perAddress,
    windowMs,
  );
  if (!address.allowed) throw tooMany(address.retryAfterMs);
}

function tooMany(retryAfterMs: number): ApiError {
  const wait = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return new ApiError(429, `Too many searches. Try again in ${wait} seconds.`, { headers: { 'Retry-After': wait } });
}

/** Runs after auth(): the rider is known, so a signed-out flood never reaches a limiter. */
export const riderSearchLimit = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    await takeSearchAllowance(c);
    await next();
  });
