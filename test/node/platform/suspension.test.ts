import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../worker/platform/http/errors';
import { suspendedRefusal } from '../../../worker/platform/middleware/suspended';
import { activeSuspension } from '../../../worker/platform/tokens/suspension';

const now = new Date('2026-12-07T12:00:00Z');
const suspended = (until: Date | null) => ({ suspension: { until, reason: 'Spam links' } });

describe('activeSuspension', () => {
  it('lasts while its end is ahead or it has none, and is over at its end', () => {
    expect(activeSuspension(suspended(null), now)).not.toBeNull();
    expect(activeSuspension(suspended(new Date(now.getTime() + 1)), now)).not.toBeNull();
    expect(activeSuspension(suspended(now), now)).toBeNull();
    expect(activeSuspension(suspended(new Date(now.getTime() - 1)), now)).toBeNull();
    expect(activeSuspension({}, now)).toBeNull();
  });
});

describe('suspendedRefusal', () => {
  const refusal = (request: { method: string; path: string }, account = suspended(null)) =>
    suspendedRefusal(account, request, now);

  it('refuses every request with 403, the end and the reason', () => {
    const error = refusal({ method: 'POST', path: '/api/feed' }, suspended(new Date('2026-12-10T00:00:00Z')));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      message: 'Account suspended.',
      fields: { until: '2026-12-10T00:00:00.000Z', reason: 'Spam links' },
    });
    expect(refusal({ method: 'PATCH', path: '/api/users/me' })?.status).toBe(403);
    expect(refusal({ method: 'GET', path: '/api/users/me/sessions' })?.status).toBe(403);
  });

  it('lets through reading your own account and signing out, and any request once it ended', () => {
    expect(refusal({ method: 'GET', path: '/api/users/me' })).toBeNull();
    expect(refusal({ method: 'POST', path: '/api/auth/logout' })).toBeNull();
    expect(refusal({ method: 'GET', path: '/api/users/me/moderation' })).toBeNull();
  });

  it("lets through deleting your own account and your data export, never another rider's account", () => {
    const own = { _id: 'a'.repeat(24), ...suspended(null) };
    expect(refusal({ method: 'DELETE', path: `/api/users/${'a'.repeat(24)}` }, own)).toBeNull();
    expect(refusal({ method: 'DELETE', path: `/api/users/${'b'.repeat(24)}` }, own)?.status).toBe(403);
    expect(refusal({ method: 'POST', path: '/api/users/me/export' }, own)).toBeNull();
    expect(refusal({ method: 'GET', path: '/api/users/me/exports' }, own)).toBeNull();
    expect(refusal({ method: 'GET', path: `/api/users/me/exports/${'c'.repeat(24)}/download` }, own)).toBeNull();
    expect(refusal({ method: 'GET', path: '/api/users/me/exports/x/download/more' }, own)?.status).toBe(403);
    expect(refusal({ method: 'POST', path: '/api/feed' }, suspended(new Date(now.getTime() - 1)))).toBeNull();
  });
});
