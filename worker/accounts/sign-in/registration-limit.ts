import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../platform/app-env';
import { positiveIntSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { clientAddress } from '../../platform/http/client-address';
import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';
import { addressNetwork } from './address-network';

const { windowMs } = LIMITS.registration;

/** Rate-limiter object names: one per client network, one for the whole service. */
export const registrationLimiterName = {
  address: (address: string) => `registration:address:${addressNetwork(address)}`,
  all: 'registration:all',
};

/**
 * Counts one registration attempt against the client's hourly allowance, then, if it is within it,
 * against the service-wide one; each in its rate-limiter object, so every Worker instance shares the
 * count and a burst cannot overshoot. Address first: attempts an address is refused do not use up
 * the service's allowance, so one address cannot trip the breaker for everyone.
 */
async function takeRegistrationAllowance(env: Env, address: string): Promise<void> {
  const perAddress = positiveIntSetting(env, 'REGISTRATIONS_PER_ADDRESS_PER_HOUR', LIMITS.registration.perAddress);
  const total = positiveIntSetting(env, 'REGISTRATIONS_PER_HOUR', LIMITS.registration.total);
  const limiter = (name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));

  const own = await limiter(registrationLimiterName.address(address)).consume(perAddress, windowMs);
  if (!own.allowed) throw tooMany('Too many registrations from this address.', own.retryAfterMs);
  const all = await limiter(registrationLimiterName.all).consume(total, windowMs);
  if (!all.allowed) throw tooMany('Registration is paused: too many new accounts this hour.', all.retryAfterMs);
}

function tooMany(reason: string, retryAfterMs: number): ApiError {
  const wait = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return new ApiError(429, `${reason} Try again in ${wait} seconds.`, { headers: { 'Retry-After': wait } });
}

/**
 * Runs before the body is read or validated, so every request that reaches the route counts (a taken
 * email's 409 and a malformed body's 400 too), and a refused one costs no password hashing.
 */
export const registrationLimit = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    await takeRegistrationAllowance(c.env, clientAddress(c.env, c.req.raw));
    await next();
  });
