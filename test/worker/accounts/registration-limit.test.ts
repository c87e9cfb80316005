import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { registrationLimiterName } from '../../../worker/accounts/sign-in/registration-limit';
import { LIMITS } from '../../../worker/platform/limits';
import { type Api, createApi } from '../../support/worker-api';

// The suite runs with high registration limits (vitest.config.ts); this file restores the defaults.
const DEFAULTS = { REGISTRATIONS_PER_ADDRESS_PER_HOUR: undefined, REGISTRATIONS_PER_HOUR: undefined };
const api = createApi('registration-limit', DEFAULTS);
const { windowMs } = LIMITS.registration;

let counter = 0;
const freshEmail = () => `new-rider-${++counter}-${crypto.randomUUID().slice(0, 6)}@example.com`;
const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const registerFrom = (ip: string, json: unknown, on: Api = api) =>
  on.fetch('/api/users', { method: 'POST', headers: { 'cf-connecting-ip': ip }, json });
const validBody = () => ({ name: 'New Rider', email: freshEmail(), password: 'correct horse' });

/** Moves every attempt a limiter object holds back past the window, as if an hour had gone by. */
const ageOutOfWindow = (name: string) =>
  runInDurableObject(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name)), async (instance) => {
    const state = (instance as unknown as { state: { failures: number[] } }).state;
    state.failures = state.failures.map((at) => at - windowMs - 1);
  });

const accountsNamed = (email: string) => api.db((db) => db.collection('users').countDocuments({ email }));

describe('registration limit per client address', () => {
  it('refuses the 11th attempt within the hour with 429 and Retry-After, counting 409s and 400s too', async () => {
    const ip = randomIp();
    const taken = validBody();
    const statuses = [(await registerFrom(ip, taken)).status];
    // Probing for a taken address and sending a body that fails validation both count.
    for (let i = 0; i < 4; i++) statuses.push((await registerFrom(ip, { ...taken, name: `Probe ${i}` })).status);
    for (let i = 0; i < 4; i++) statuses.push((await registerFrom(ip, { ...validBody(), password: 'short' })).status);
    statuses.push((await registerFrom(ip, validBody())).status);
    expect(statuses).toEqual([201, 409, 409, 409, 409, 400, 400, 400, 400, 201]);

    const eleventh = validBody();
    const blocked = await registerFrom(ip, eleventh);
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(windowMs / 1000 - 120);
    expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
    expect((await blocked.json<{ error: string }>()).error).toMatch(/Too many registrations from this address/);
    expect(await accountsNamed(eleventh.email)).toBe(0);
    // Nor does a refused attempt reveal whether an address is taken.
    expect((await registerFrom(ip, taken)).status).toBe(429);
    // A body the route cannot even parse is refused the same way: the count comes first.
    expect((await registerFrom(ip, { email: 42 })).status).toBe(429);
  }, 60_000);

  it('still lets another address register', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) await registerFrom(ip, { ...validBody(), password: 'short' });
    expect((await registerFrom(ip, validBody())).status).toBe(429);
    expect((await registerFrom(randomIp(), validBody())).status).toBe(201);
  });

  it('holds a burst of parallel attempts from one address to the limit', async () => {
    const ip = randomIp();
    const results = await Promise.all(
      Array.from({ length: 16 }, () => registerFrom(ip, { ...validBody(), password: 'short' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(6).fill(429)]);
  });

  it('counts addresses of one IPv6 /64 network together', async () => {
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    for (let i = 0; i < 10; i++) await registerFrom(`${network}::${i + 1}`, { ...validBody(), password: 'short' });
    expect((await registerFrom(`${network}:0:0:0:ffff`, validBody())).status).toBe(429);
    expect((await registerFrom(`${network.replace(/:7$/, ':8')}::1`, validBody())).status).toBe(201);
  });

  it('lets the address register again once its attempts leave the hour', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) await registerFrom(ip, { ...validBody(), password: 'short' });
    expect((await registerFrom(ip, validBody())).status).toBe(429);

    await ageOutOfWindow(registrationLimiterName.address(ip));
    expect((await registerFrom(ip, validBody())).status).toBe(201);
  });

  it('takes the per-address allowance from REGISTRATIONS_PER_ADDRESS_PER_HOUR', async () => {
    const classroom = createApi('registration-limit-class', { ...DEFAULTS, REGISTRATIONS_PER_ADDRESS_PER_HOUR: '12' });
    const ip = randomIp();
    for (let i = 0; i < 12; i++) {
      expect((await registerFrom(ip, { ...validBody(), password: 'short' }, classroom)).status).toBe(400);
    }
    expect((await registerFrom(ip, validBody(), classroom)).status).toBe(429);
  });

  it('refuses an unusable REGISTRATIONS_PER_ADDRESS_PER_HOUR by name', async () => {
    const misconfigured = createApi('registration-limit-bad', { REGISTRATIONS_PER_ADDRESS_PER_HOUR: 'lots' });
    const res = await registerFrom(randomIp(), validBody(), misconfigured);
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain(
      'REGISTRATIONS_PER_ADDRESS_PER_HOUR must be a positive whole number',
    );
  });
});

describe('registration circuit breaker', () => {
  it('refuses every address once the service-wide hourly limit is reached, until attempts leave the hour', async () => {
    const breaker = createApi('registration-limit-breaker', { ...DEFAULTS, REGISTRATIONS_PER_HOUR: '3' });
    // Start from an empty hour: the tests above counted on the same service-wide object.
    await ageOutOfWindow(registrationLimiterName.all);
    expect((await registerFrom(randomIp(), validBody(), breaker)).status).toBe(201);
    expect((await registerFrom(randomIp(), { ...validBody(), password: 'short' }, breaker)).status).toBe(400);
    expect((await registerFrom(randomIp(), validBody(), breaker)).status).toBe(201);

    for (const ip of [randomIp(), randomIp()]) {
      const blocked = await registerFrom(ip, validBody(), breaker);
      expect(blocked.status).toBe(429);
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(windowMs / 1000 - 120);
      expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
      expect((await blocked.json<{ error: string }>()).error).toMatch(/Registration is paused/);
    }

    await ageOutOfWindow(registrationLimiterName.all);
    expect((await registerFrom(randomIp(), validBody(), breaker)).status).toBe(201);
  });
});
