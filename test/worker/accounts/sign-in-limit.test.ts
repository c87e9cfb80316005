import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

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

  it('limits failures per client address, at a higher threshold (50) than per email', async () => {
    const ip = randomIp();
    const account = await register(api);
    // 49 failures on other emails from one address: the address's own rider still gets in.
    for (let batch = 0; batch < 7; batch++) {
      const results = await Promise.all(
        Array.from({ length: 7 }, (_, i) => signIn(`nobody${batch}-${i}@example.com`, 'wrong password', ip)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(7).fill(400));
    }
    expect((await signIn(account.email, account.password, ip)).status).toBe(200);
    expect((await signIn('nobody-last@example.com', 'wrong password', ip)).status).toBe(400);
    const blocked = await signIn(account.email, account.password, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect((await signIn(account.email, account.password, randomIp())).status).toBe(200);
    // 53 sign-ins, each a bcrypt verification in JavaScript (unknown emails too, against a dummy hash, so
    // they take as long): on a loaded two-core machine that passed the default 20 s.
  }, 60_000);

  it('takes the per-address threshold from SIGN_IN_MAX_FAILURES_PER_ADDRESS', async () => {
    const strict = createApi('sign-in-limit-strict', { SIGN_IN_MAX_FAILURES_PER_ADDRESS: '3' });
    const ip = randomIp();
    const attempt = (email: string, password: string) =>
      strict.fetch('/api/auth', { method: 'POST', headers: { 'cf-connecting-ip': ip }, json: { email, password } });
    const account = await register(strict);
    for (let i = 0; i < 3; i++) expect((await attempt(`nobody${i}@example.com`, 'wrong password')).status).toBe(400);
    expect((await attempt(account.email, account.password)).status).toBe(429);
  });

  it('refuses an unusable SIGN_IN_MAX_FAILURES_PER_ADDRESS by name', async () => {
    const misconfigured = createApi('sign-in-limit-bad', { SIGN_IN_MAX_FAILURES_PER_ADDRESS: 'many' });
    const res = await misconfigured.fetch('/api/auth', {
      method: 'POST',
      json: { email: 'a@example.com', password: 'x' },
    });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain(
      'SIGN_IN_MAX_FAILURES_PER_ADDRESS must be a positive whole number',
    );
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
