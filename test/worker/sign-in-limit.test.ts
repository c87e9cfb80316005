import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { register } from '../support/accounts';
import { createApi } from '../support/worker-api';

const api = createApi('sign-in-limit');

const signIn = (email: string, password: string, ip: string) =>
  api.fetch('/api/auth', { method: 'POST', headers: { 'cf-connecting-ip': ip }, json: { email, password } });

const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe('sign-in rate limit', () => {
  it('refuses the sixth failed attempt for an email with 429 and Retry-After, even with the right password', async () => {
    const account = await register(api);
    for (let i = 0; i < 5; i++) {
      expect((await signIn(account.email, 'wrong password', randomIp())).status).toBe(400);
    }
    const blocked = await signIn(account.email, 'wrong password', randomIp());
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await blocked.json<{ error: string }>()).error).toMatch(/Too many failed sign-in attempts/);

    expect((await signIn(account.email, account.password, randomIp())).status).toBe(429);
  });

  it('limits failures per client IP across different emails', async () => {
    const ip = randomIp();
    const account = await register(api);
    for (let i = 0; i < 5; i++) {
      expect((await signIn(`nobody${i}@example.com`, 'wrong password', ip)).status).toBe(400);
    }
    expect((await signIn(account.email, account.password, ip)).status).toBe(429);
    expect((await signIn(account.email, account.password, randomIp())).status).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    const ip = randomIp();
    const account = await register(api);
    for (let i = 0; i < 8; i++) {
      expect((await signIn(account.email, account.password, ip)).status).toBe(200);
    }
  });

  it('holds a burst of parallel failures to the limit', async () => {
    const account = await register(api);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => signIn(account.email, 'wrong password', randomIp())),
    );
    const counted = results.filter((r) => r.status === 400).length;
    expect(counted).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(7);
  });

  it('lets the subject in again once its failures leave the window', async () => {
    const account = await register(api);
    for (let i = 0; i < 5; i++) await signIn(account.email, 'wrong password', randomIp());
    expect((await signIn(account.email, account.password, randomIp())).status).toBe(429);

    // Age the recorded failures past the 15-minute window.
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`sign-in:email:${account.email}`));
    await runInDurableObject(stub, async (instance) => {
      const state = (instance as unknown as { state: { failures: number[] } }).state;
      state.failures = state.failures.map((at) => at - 15 * 60 * 1000 - 1);
    });
    expect((await signIn(account.email, account.password, randomIp())).status).toBe(200);
  });
});
