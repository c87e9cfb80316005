import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { type Api, createApi } from '../../support/worker-api';

// The suite raises the registration limits (vitest.config.ts); these files count against the defaults.
const DEFAULTS = { REGISTRATIONS_PER_ADDRESS_PER_HOUR: undefined, REGISTRATIONS_PER_HOUR: undefined };
const behindProxy = createApi('client-address-xff', { ...DEFAULTS, CLIENT_ADDRESS_SOURCE: 'x-forwarded-for' });
const noAddress = createApi('client-address-none', { ...DEFAULTS, CLIENT_ADDRESS_SOURCE: 'none' });

const octet = () => Math.floor(Math.random() * 250);
const randomIp = () => `10.${octet()}.${octet()}.${octet()}`;
let counter = 0;
const badRegistration = () => ({ name: 'R', email: `r${++counter}@example.com`, password: 'short' });
const register11 = async (on: Api, headers: () => Record<string, string>) => {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    statuses.push(
      (await on.fetch('/api/users', { method: 'POST', headers: headers(), json: badRegistration() })).status,
    );
  }
  return statuses;
};

describe('the client address behind a trusted proxy (CLIENT_ADDRESS_SOURCE=x-forwarded-for)', () => {
  it('counts registrations by the entry the proxy appended, whatever the client put before it or in cf-connecting-ip', async () => {
    const client = randomIp();
    const statuses = await register11(behindProxy, () => ({
      'x-forwarded-for': `${randomIp()}, ${client}`,
      'cf-connecting-ip': randomIp(),
    }));
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    const other = await behindProxy.fetch('/api/users', {
      method: 'POST',
      headers: { 'x-forwarded-for': `${client}, ${randomIp()}` },
      json: badRegistration(),
    });
    expect(other.status).toBe(400);
  });

  it('counts failed sign-ins by the entry the proxy appended', async () => {
    const strict = createApi('client-address-xff-sign-in', {
      CLIENT_ADDRESS_SOURCE: 'x-forwarded-for',
      SIGN_IN_MAX_FAILURES_PER_ADDRESS: '3',
    });
    const account = await register(strict);
    const client = randomIp();
    const attempt = (email: string, password: string) =>
      strict.fetch('/api/auth', {
        method: 'POST',
        headers: { 'x-forwarded-for': `${randomIp()},${client}`, 'cf-connecting-ip': randomIp() },
        json: { email, password },
      });
    for (let i = 0; i < 3; i++) expect((await attempt(`nobody${i}@example.com`, 'wrong password')).status).toBe(400);
    expect((await attempt(account.email, account.password)).status).toBe(429);
  });
});

describe('no trusted address (CLIENT_ADDRESS_SOURCE=none)', () => {
  it('counts every client in one bucket, whatever headers it sends', async () => {
    const statuses = await register11(noAddress, () => ({
      'cf-connecting-ip': randomIp(),
      'x-forwarded-for': randomIp(),
    }));
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
  });
});

describe('an unusable CLIENT_ADDRESS_SOURCE', () => {
  it('is refused by name', async () => {
    const misconfigured = createApi('client-address-bad', { CLIENT_ADDRESS_SOURCE: 'socket' });
    const res = await misconfigured.fetch('/api/users', { method: 'POST', json: badRegistration() });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('CLIENT_ADDRESS_SOURCE must be');
  });
});
