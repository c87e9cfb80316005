import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { registerAdmin } from '../../support/accounts';
import { at, DAY, seedEvents, seedRider } from '../../support/analytics-seed';
import { createApi } from '../../support/worker-api';

const api = createApi('analytics-dashboard');

async function figures(path: string) {
  const admin = await registerAdmin(api);
  const res = await api.fetch(path, { headers: { 'x-auth-token': admin.token } });
  expect(res.status).toBe(200);
  return res.json<any>();
}

const none = { riders: 0, actions: 0 };
const one = { riders: 1, actions: 1 };

describe('GET /api/analytics/dashboard/wpr', () => {
  // Each dataset lives in its own stretch of time, so the three figures never see each other's events.
  const T = '2025-06-04T00:00:00.000Z';

  it('counts riders, depth and domains per rolling window, edges half-open, excluded accounts apart', async () => {
    await api.db(async (db) => {
      const created = at('2025-01-01T00:00:00.000Z');
      const [a, b, admin, bot, optedOut] = [
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created, { role: 'admin' }),
        await seedRider(db, created, { isBot: true }),
        await seedRider(db, created, { analyticsExcluded: true }),
      ];
      await seedEvents(db, [
        { name: 'trick_added', at: at(T, -14 * DAY - 1), userId: a }, // before the oldest window
        { name: 'trick_landed', at: at(T, -7 * DAY - 1), userId: a }, // last instant of the older window
        { name: 'trick_added', at: at(T, -7 * DAY), userId: a }, // first instant of the newer window
        { name: 'spot_saved', at: at(T, -1), userId: a },
        { name: 'trick_added', at: at(T), userId: a }, // asOf itself is outside
        { name: 'post_created', at: at(T, -10 * DAY), userId: b },
        { name: 'ai_response_completed', at: at(T, -3 * DAY), userId: b, properties: { substantive: true } },
        { name: 'ai_response_completed', at: at(T, -4 * DAY), userId: b }, // a greeting: stored, not counted
        { name: 'app_opened', at: at(T, -2 * DAY), userId: b }, // not a meaningful action
        { name: 'trick_added', at: at(T, -1 * DAY), userId: null }, // anonymous
        { name: 'trick_added', at: at(T, -1 * DAY), userId: admin },
        { name: 'comment_created', at: at(T, -2 * DAY), userId: bot },
        { name: 'event_saved', at: at(T, -9 * DAY), userId: optedOut },
      ]);
    });
    const body = await figures(`/api/analytics/dashboard/wpr?weeks=2&asOf=${T}`);
    expect(body).toEqual({
      asOf: T,
      windows: [
        {
          from: '2025-05-21T00:00:00.000Z',
          to: '2025-05-28T00:00:00.000Z',
          riders: 2,
          actions: 2,
          depth: 1,
          domains: { progression: one, discovery: none, coaching: none, community: one },
          excluded: 1,
        },
        {
          from: '2025-05-28T00:00:00.000Z',
          to: T,
          riders: 2,
          actions: 3,
          depth: 1.5,
          domains: { progression: one, discovery: one, coaching: one, community: none },
          excluded: 2,
        },
      ],
    });
  });

  it('counts one copy of each action: the server copy of the names it records, the client copy of the others', async () => {
    const T2 = '2025-08-06T00:00:00.000Z';
    await api.db(async (db) => {
      const rider = await seedRider(db, at('2025-01-01T00:00:00.000Z'));
      await seedEvents(db, [
        // The API recorded the trick; the app sent its own copy of the same action.
        { name: 'trick_added', at: at(T2, -3 * DAY), userId: rider, platform: 'server' },
        { name: 'trick_added', at: at(T2, -3 * DAY), userId: rider, platform: 'ios' },
        // A client copy of a server-recorded action whose server copy is missing still does not count.
        { name: 'post_created', at: at(T2, -2 * DAY), userId: rider, platform: 'android' },
        // Only the client sees directions being opened: its copy counts; a forged server copy does not.
        { name: 'spot_directions_opened', at: at(T2, -1 * DAY), userId: rider, platform: 'ios' },
        { name: 'spot_directions_opened', at: at(T2, -1 * DAY), userId: rider, platform: 'server' },
      ]);
    });
    const body = await figures(`/api/analytics/dashboard/wpr?weeks=1&asOf=${T2}`);
    expect(body.windows[0]).toMatchObject({
      riders: 1,
      actions: 2,
      domains: { progression: one, discovery: one, coaching: none, community: none },
    });
  });

  it('answers eight zero windows by default for a quiet stretch, depth 0', async () => {
    const body = await figures('/api/analytics/dashboard/wpr?asOf=2001-01-01');
    expect(body.windows).toHaveLength(8);
    expect(body.windows[7]).toMatchObject({ to: '2001-01-01T00:00:00.000Z', riders: 0, depth: 0, excluded: 0 });
  });

  it('refuses more weeks than the limit and an asOf that is not a date, naming the field', async () => {
    const admin = await registerAdmin(api);
    for (const [query, field] of [
      ['weeks=53', 'weeks'],
      ['asOf=yesterday', 'asOf'],
    ]) {
      const res = await api.fetch(`/api/analytics/dashboard/wpr?${query}`, {
        headers: { 'x-auth-token': admin.token },
      });
      expect(res.status).toBe(400);
      expect((await res.json<any>()).details[0].field).toBe(field);
    }
  });
});

describe('GET /api/analytics/dashboard/retention', () => {
  const T = '2026-03-04T00:00:00.000Z'; // a Wednesday: the newest cohort week began Monday 2026-03-02

  it('counts W1..W4 by days after signup, null until elapsed for the whole cohort week, excluded apart', async () => {
    await api.db(async (db) => {
      const r1 = await seedRider(db, at('2026-02-02T12:00:00.000Z'));
      const r2 = await seedRider(db, at('2026-02-05T00:00:00.000Z'));
      const admin = await seedRider(db, at('2026-02-03T00:00:00.000Z'), { role: 'admin' });
      await seedRider(db, at('2026-02-06T00:00:00.000Z'));
      const r5 = await seedRider(db, at('2026-02-10T08:00:00.000Z'));
      const bot = await seedRider(db, at('2026-02-17T00:00:00.000Z'), { isBot: true });
      const r7 = await seedRider(db, at('2026-02-24T00:00:00.000Z'));
      await seedRider(db, at('2026-03-03T00:00:00.000Z'));
      await seedRider(db, at(T)); // signed up at asOf: in no cohort
      const early = await seedRider(db, at('2026-01-30T00:00:00.000Z')); // before the oldest cohort
      await seedEvents(db, [
        { name: 'trick_added', at: at('2026-02-03T11:59:59.999Z'), userId: r1 }, // day 0: in no window
        { name: 'trick_added', at: at('2026-02-10T11:00:00.000Z'), userId: r1 }, // day 7: W1
        { name: 'spot_saved', at: at('2026-02-10T12:30:00.000Z'), userId: r1 }, // day 8: W2
        { name: 'post_created', at: at('2026-02-10T13:00:00.000Z'), userId: r1 }, // day 8: W2
        { name: 'trick_added', at: at('2026-02-24T12:00:00.000Z'), userId: r1 }, // day 22: W4, not elapsed
        { name: 'trick_added', at: at('2026-02-05T23:00:00.000Z'), userId: r2 }, // day 0
        { name: 'trick_added', at: at('2026-02-26T00:00:00.000Z'), userId: r2 }, // day 21 exactly: W3
        { name: 'app_opened', at: at('2026-02-07T00:00:00.000Z'), userId: r2 }, // not meaningful
        { name: 'trick_added', at: at('2026-02-05T00:00:00.000Z'), userId: admin },
        { name: 'trick_added', at: at('2026-02-11T09:00:00.000Z'), userId: r5 }, // day 1: W1
        { name: 'trick_added', at: at('2026-02-25T09:00:00.000Z'), userId: r5 }, // day 15: W3, not elapsed
        { name: 'trick_added', at: at('2026-02-19T00:00:00.000Z'), userId: bot },
        { name: 'trick_added', at: at('2026-02-25T01:00:00.000Z'), userId: r7 }, // W1, not elapsed
        { name: 'trick_added', at: at('2026-02-03T00:00:00.000Z'), userId: early },
      ]);
    });
    const body = await figures(`/api/analytics/dashboard/retention?weeks=5&asOf=${T}`);
    const window = (riders: number, size: number) => ({ riders, share: riders / size });
    expect(body.cohorts).toEqual([
      {
        from: '2026-02-02T00:00:00.000Z',
        to: '2026-02-09T00:00:00.000Z',
        riders: 3,
        excluded: 1,
        w1: window(1, 3),
        w2: window(1, 3),
        w3: window(1, 3),
        w4: null,
      },
      {
        from: '2026-02-09T00:00:00.000Z',
        to: '2026-02-16T00:00:00.000Z',
        riders: 1,
        excluded: 0,
        w1: window(1, 1),
        w2: window(0, 1),
        w3: null,
        w4: null,
      },
      {
        from: '2026-02-16T00:00:00.000Z',
        to: '2026-02-23T00:00:00.000Z',
        riders: 0,
        excluded: 1,
        w1: { riders: 0, share: 0 },
        w2: null,
        w3: null,
        w4: null,
      },
      ...['2026-02-23', '2026-03-02'].map((from, i) => ({
        from: `${from}T00:00:00.000Z`,
        to: `${['2026-03-02', '2026-03-09'][i]}T00:00:00.000Z`,
        riders: 1,
        excluded: 0,
        w1: null,
        w2: null,
        w3: null,
        w4: null,
      })),
    ]);
  });
});

describe('GET /api/analytics/dashboard/quality', () => {
  const T = '2024-03-10T00:00:00.000Z';
  const full = { appVersion: '1.10.0', buildNumber: 42, sessionId: crypto.randomUUID(), anonymousId: 'install-1' };

  it('shares authenticated mobile events carrying every envelope field, received in the window', async () => {
    await api.db(async (db) => {
      const created = at('2024-01-01T00:00:00.000Z');
      const [u1, u2, admin] = [
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created, { role: 'admin' }),
      ];
      const day = at(T, -DAY);
      await seedEvents(db, [
        { name: 'app_opened', at: day, userId: u1, platform: 'ios', envelope: full },
        { name: 'app_opened', at: day, userId: u1, platform: 'android', envelope: { ...full, buildNumber: undefined } },
        { name: 'app_opened', at: day, userId: u1, platform: 'ios', envelope: { ...full, appVersion: '' } },
        { name: 'app_opened', at: day, userId: u2, platform: 'android', envelope: full },
        {
          name: 'app_opened',
          at: day,
          userId: u2,
          platform: 'ios',
          envelope: { appVersion: '1.0.0', buildNumber: 1 },
        },
        // Received at the window's first instant, though it occurred long before: the window is by receipt.
        { name: 'app_opened', at: at(T, -30 * DAY), receivedAt: at(T, -7 * DAY), userId: u2, envelope: full },
        { name: 'app_opened', at: at(T, -7 * DAY - 1), userId: u2, envelope: {} }, // before the window
        { name: 'app_opened', at: day, userId: u1, platform: 'web', envelope: {} }, // not mobile
        { name: 'app_opened', at: day, userId: null, platform: 'ios', envelope: {} }, // not authenticated
        // Sent with a token but without its userId: counted, lacking identity.
        { name: 'app_opened', at: day, userId: null, authenticated: true, platform: 'android', envelope: full },
        { name: 'signup_completed', at: day, userId: u1, platform: 'server' },
        { name: 'app_opened', at: day, userId: admin, platform: 'ios', envelope: {} },
      ]);
    });
    const body = await figures(`/api/analytics/dashboard/quality?days=7&asOf=${T}`);
    expect(body).toEqual({
      from: '2024-03-03T00:00:00.000Z',
      to: T,
      events: 7,
      complete: 3,
      share: 3 / 7,
      target: 0.98,
      meetsTarget: false,
      missing: { appVersion: 1, buildNumber: 1, sessionId: 1, anonymousId: 1, userId: 1 },
      excluded: 1,
    });
  });

  it('answers a null share, not a division by zero, when no events arrived', async () => {
    const body = await figures('/api/analytics/dashboard/quality?asOf=2001-01-01');
    expect(body).toMatchObject({ events: 0, complete: 0, share: null, meetsTarget: null });
  });
});

describe('the dashboard page', () => {
  it('serves the page and the chart library from the Worker, without a CDN', async () => {
    const page = await api.fetch('/admin/analytics');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="/admin/analytics/chart.umd.min.js">');
    expect(html).not.toMatch(/src="https?:/);
    const library = await api.fetch('/admin/analytics/chart.umd.min.js');
    expect(library.headers.get('content-type')).toContain('text/javascript');
    expect(await library.text()).toMatch(/Chart\.js v4/);
  });
});

describeAccessChecks(api, [
  { method: 'GET', path: '/api/analytics/dashboard/wpr', check: 'admin' },
  { method: 'GET', path: '/api/analytics/dashboard/retention', check: 'admin' },
  { method: 'GET', path: '/api/analytics/dashboard/quality', check: 'admin' },
]);
