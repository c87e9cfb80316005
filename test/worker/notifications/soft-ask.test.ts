import { describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

// The soft-ask rule of the interface spec, kept on the account (docs/web-push.md, "Asking for permission").

const api = createApi('soft-ask');
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const patch = (account: TestAccount, json: unknown) =>
  api.fetch('/api/users/me/notification-preferences', {
    method: 'PATCH',
    headers: { 'x-auth-token': account.token },
    json,
  });

async function preferences(account: TestAccount) {
  const res = await api.fetch('/api/users/me/notification-preferences', { headers: { 'x-auth-token': account.token } });
  expect(res.status).toBe(200);
  return res.json<{ softAsk: Record<string, Record<string, string>>; shouldAsk: Record<string, boolean> }>();
}

describe('soft ask', () => {
  it('asks again no sooner than 7 days after a decline: not at 6 days, again at 8', async () => {
    const rider = await register(api);
    const sixDays = daysAgo(6);
    const res = await patch(rider, { softAsk: { web: { shownAt: sixDays, declinedAt: sixDays } } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      softAsk: { web: { shownAt: sixDays, declinedAt: sixDays }, ios: {} },
      shouldAsk: { web: false, ios: true, android: true },
    });
    const eightDays = daysAgo(8);
    expect((await patch(rider, { softAsk: { web: { declinedAt: eightDays } } })).status).toBe(200);
    // The late report replaces the decline time; shownAt stays (deep merge).
    expect(await preferences(rider)).toMatchObject({
      softAsk: { web: { shownAt: sixDays, declinedAt: eightDays } },
      shouldAsk: { web: true },
    });
  });

  it('never asks again once accepted, or once the OS permission is granted or denied', async () => {
    const rider = await register(api);
    await patch(rider, {
      softAsk: { ios: { acceptedAt: daysAgo(30) } },
      osPermission: { android: 'denied', web: 'granted' },
    });
    expect((await preferences(rider)).shouldAsk).toEqual({ ios: false, android: false, web: false });
    const other = await register(api);
    await patch(other, { osPermission: { ios: 'provisional', web: 'unknown' } });
    expect((await preferences(other)).shouldAsk).toEqual({ ios: true, android: true, web: true });
  });

  it('holds across devices: a decline reported by one client is what every client reads', async () => {
    const rider = await register(api);
    await patch(rider, { softAsk: { android: { declinedAt: daysAgo(1) } } });
    expect((await preferences(rider)).shouldAsk.android).toBe(false);
  });

  it('refuses a time in the future, a non-ISO time and unknown platforms or fields with a 400 naming them', async () => {
    const rider = await register(api);
    const future = new Date(Date.now() + DAY).toISOString();
    for (const [body, field] of [
      [{ softAsk: { web: { declinedAt: future } } }, 'softAsk.web.declinedAt'],
      [{ softAsk: { ios: { shownAt: 'yesterday' } } }, 'softAsk.ios.shownAt'],
      [{ softAsk: { desktop: { shownAt: daysAgo(1) } } }, 'softAsk'],
      [{ softAsk: { web: { dismissedAt: daysAgo(1) } } }, 'softAsk.web'],
    ] as const) {
      const res = await patch(rider, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = await res.json<{ details: { field: string; message: string }[] }>();
      expect(answer.details.map((detail) => detail.field)).toContain(field);
    }
    expect((await preferences(rider)).softAsk.web).toEqual({});
  });
});
