import { ObjectId } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { signSessionToken, verifiedTokens, verifyWithKeys } from '../../../worker/platform/tokens/token';
import { VerifiedTokens } from '../../../worker/platform/tokens/verified-tokens';

const claims = (id = new ObjectId()) => ({
  _id: id.toHexString(),
  name: 'Rider',
  email: 'rider@example.test',
  imageUri: '',
  role: null,
});
const KEYS = { current: 'a-secret-long-enough-for-hs256-0123456789' };

describe('VerifiedTokens', () => {
  it('never holds more than its bound, however many tokens arrive', () => {
    const tokens = new VerifiedTokens<object>(3, 60_000);
    for (let i = 0; i < 100; i++) tokens.set(`token-${i}`, KEYS, { claims: claims() });
    expect(tokens.size).toBe(3);
    expect(tokens.get('token-99', KEYS)).toBeDefined();
    expect(tokens.get('token-96', KEYS)).toBeUndefined();
  });

  it('answers a remembered token as expired from its exp on, as jose does', () => {
    const clock = { now: 1_000_000 };
    const tokens = new VerifiedTokens<object>(10, 3_600_000, () => clock.now);
    tokens.set('t', KEYS, { claims: claims(), sessionId: 'a'.repeat(24) }, 1_010);
    expect(tokens.get('t', KEYS)).toMatchObject({ sessionId: 'a'.repeat(24) });
    clock.now = 1_009_999;
    expect(tokens.get('t', KEYS)).not.toBe('expired');
    clock.now = 1_010_000;
    expect(tokens.get('t', KEYS)).toBe('expired');
  });

  it('forgets every token when the signing secrets change', () => {
    const tokens = new VerifiedTokens<object>(10, 60_000);
    tokens.set('t', KEYS, { claims: claims() });
    expect(tokens.get('t', { current: 'another-secret' })).toBeUndefined();
    expect(tokens.get('t', { ...KEYS, previous: 'old' })).toBeUndefined();
    tokens.set('u', { current: 'another-secret' }, { claims: claims() });
    expect(tokens.get('t', KEYS)).toBeUndefined();
  });
});

describe('verifyWithKeys remembering tokens', () => {
  it('keeps at most the bound of tokens verified in this isolate', async () => {
    const keys = { current: 'bound-secret-long-enough-for-hs256-01234567' };
    for (let i = 0; i < LIMITS.sessions.verifiedTokensMax + 5; i++)
      await verifyWithKeys(await signSessionToken(claims(), keys.current), keys);
    expect(verifiedTokens.size).toBe(LIMITS.sessions.verifiedTokensMax);
  });

  it('refuses a remembered opt-in token once past its exp, and under secrets that did not sign it', async () => {
    const keys = { current: 'expiry-secret-long-enough-for-hs256-0123456' };
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = await signSessionToken(claims(), keys.current, { exp, sid: 'b'.repeat(24) });
    expect(await verifyWithKeys(token, keys)).toMatchObject({ sessionId: 'b'.repeat(24) });
    vi.useFakeTimers({ now: exp * 1000 });
    try {
      expect(await verifyWithKeys(token, keys)).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
    expect(await verifyWithKeys(token, { current: 'some-other-secret-long-enough-for-hs256-0' })).toBeNull();
  });

  it('never remembers a token that failed, and hands out claims no caller can change', async () => {
    const keys = { current: 'frozen-secret-long-enough-for-hs256-012345' };
    const token = await signSessionToken(claims(), keys.current);
    const size = verifiedTokens.size;
    expect(await verifyWithKeys(`${token}x`, keys)).toBeNull();
    expect(verifiedTokens.size).toBe(size);
    const verified = await verifyWithKeys(token, keys);
    expect(verified).not.toBe('expired');
    expect(Object.isFrozen((verified as { claims: object }).claims)).toBe(true);
    expect(await verifyWithKeys(token, keys)).toBe(verified);
  });
});
