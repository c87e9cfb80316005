import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { variantFor } from '../../../worker/growth/experiments/assignment';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { at, DAY, seedEvents, seedRider } from '../../support/analytics-seed';
import { createApi } from '../../support/worker-api';

const api = createApi('experiments');

const HALVES = [
  { key: 'control', weight: 50 },
  { key: 'treatment', weight: 50 },
];

/** A fresh experiment key per test: the tests share one database. */
const freshKey = (label: string) => `${label}_${crypto.randomUUID().slice(0, 8).replace(/-/g, '')}`;

async function adminCall(admin: TestAccount, method: string, path: string, json?: unknown) {
  return api.fetch(path, { method, headers: { 'x-auth-token': admin.token }, ...(json ? { json } : {}) });
}

async function define(admin: TestAccount, over: Record<string, unknown> = {}) {
  const body = {
    key: freshKey('exp'),
    variants: HALVES,
    platforms: ['ios', 'android', 'web'],
    primaryMetric: 'progression',
    status: 'running',
    ...over,
  };
  const res = await adminCall(admin, 'POST', '/api/admin/experiments', body);
  expect(res.status).toBe(201);
  return res.json<any>();
}

async function assignments(installationId: string, platform = 'ios', as?: TestAccount) {
  const res = await api.fetch(`/api/experiments/assignments?installationId=${installationId}&platform=${platform}`, {
    headers: as ? { 'x-auth-token': as.token } : {},
  });
  expect(res.status).toBe(200);
  return (await res.json<{ assignments: Record<string, string> }>()).assignments;
}

const HOUR_AGO = new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60 * 1000);

const exposure = (experimentKey: string, variant: string, over: Record<string, unknown> = {}) => ({
  eventId: crypto.randomUUID(),
  name: 'experiment_exposed',
  occurredAt: HOUR_AGO.toISOString(),
  anonymousId: 'install-exposure',
  platform: 'ios',
  schemaVersion: 1,
  properties: { experimentKey, variant },
  ...over,
});

async function sendEvents(events: unknown[], as?: TestAccount) {
  const res = await api.fetch('/api/analytics/events', {
    method: 'POST',
    json: { events },
    headers: as ? { 'x-auth-token': as.token } : {},
  });
  expect(res.status).toBe(200);
  return res.json<{ results: { status: string; reason?: string }[] }>();
}

const exposuresOf = (experimentKey: string) =>
  api.db((db) => db.collection('experiment_exposures').find({ experimentKey }).toArray());

describe('experiment definitions', () => {
  it('creates, lists and reads an experiment; a taken key is a 409', async () => {
    const admin = await registerAdmin(api);
    const created = await define(admin, { status: undefined, description: 'Shorter onboarding copy' });
    expect(created).toMatchObject({ status: 'draft', variants: HALVES, primaryMetric: 'progression', startedAt: null });
    const again = await adminCall(admin, 'POST', '/api/admin/experiments', {
      key: created.key,
      variants: HALVES,
      platforms: ['ios'],
      primaryMetric: 'discovery',
    });
    expect(again.status).toBe(409);
    const one = await adminCall(admin, 'GET', `/api/admin/experiments/${created.key}`);
    expect(await one.json()).toEqual(created);
    const list = await (await adminCall(admin, 'GET', '/api/admin/experiments')).json<any>();
    expect(list.items.map((item: { key: string }) => item.key)).toContain(created.key);
    expect((await adminCall(admin, 'GET', '/api/admin/experiments/no_such_experiment')).status).toBe(404);
  });

  it('refuses weights not summing to 100, a first variant other than control, repeated keys and unknown metrics', async () => {
    const admin = await registerAdmin(api);
    const bad = async (over: Record<string, unknown>, message: RegExp) => {
      const res = await adminCall(admin, 'POST', '/api/admin/experiments', {
        key: freshKey('bad'),
        variants: HALVES,
        platforms: ['ios'],
        primaryMetric: 'progression',
        ...over,
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(message);
    };
    await bad(
      {
        variants: [
          { key: 'control', weight: 50 },
          { key: 'b', weight: 40 },
        ],
      },
      /sum to 100 \(they sum to 90\)/,
    );
    await bad(
      {
        variants: [
          { key: 'b', weight: 50 },
          { key: 'control', weight: 50 },
        ],
      },
      /first variant must be `control`/,
    );
    await bad(
      {
        variants: [
          { key: 'control', weight: 50 },
          { key: 'control', weight: 50 },
        ],
      },
      /distinct/,
    );
    await bad({ variants: [{ key: 'control', weight: 100 }] }, /variants/);
    await bad({ primaryMetric: 'revenue' }, /primaryMetric/);
    await bad({ key: 'Has Spaces' }, /key/);
  });

  it('changes weights while draft, refuses to change them once running or stopped, and never goes back to draft', async () => {
    const admin = await registerAdmin(api);
    const { key } = await define(admin, { status: 'draft' });
    const reweighted = [
      { key: 'control', weight: 70 },
      { key: 'treatment', weight: 30 },
    ];
    const draft = await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { variants: reweighted });
    expect((await draft.json<any>()).variants).toEqual(reweighted);

    const started = await (
      await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { status: 'running' })
    ).json<any>();
    expect(started.status).toBe('running');
    expect(started.startedAt).not.toBeNull();

    const refused = await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { variants: HALVES });
    expect(refused.status).toBe(409);
    expect((await refused.json<any>()).error).toMatch(/bias the results/);
    // Starting and reweighting in one request is refused as a whole.
    const both = await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, {
      status: 'running',
      variants: HALVES,
    });
    expect(both.status).toBe(409);

    const stopped = await (
      await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { status: 'stopped' })
    ).json<any>();
    expect(stopped).toMatchObject({ status: 'stopped', variants: reweighted, startedAt: started.startedAt });
    expect((await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { variants: HALVES })).status).toBe(409);
    expect((await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { status: 'draft' })).status).toBe(409);
    // Resuming keeps the first start.
    const resumed = await (
      await adminCall(admin, 'PATCH', `/api/admin/experiments/${key}`, { status: 'running' })
    ).json<any>();
    expect(resumed).toMatchObject({ status: 'running', startedAt: started.startedAt, stoppedAt: null });
    expect((await adminCall(admin, 'PATCH', '/api/admin/experiments/no_such_one', { status: 'running' })).status).toBe(
      404,
    );
  });
});

describe('GET /api/experiments/assignments', () => {
  it('hashes the installation before sign-in: the same answer on every call, only running experiments of the platform', async () => {
    const admin = await registerAdmin(api);
    const running = await define(admin, {
      variants: [
        { key: 'control', weight: 34 },
        { key: 'b', weight: 33 },
        { key: 'c', weight: 33 },
      ],
    });
    const draft = await define(admin, { status: 'draft' });
    const webOnly = await define(admin, { platforms: ['web'] });
    const stopped = await define(admin);
    await adminCall(admin, 'PATCH', `/api/admin/experiments/${stopped.key}`, { status: 'stopped' });

    const first = await assignments('install-anon-1');
    expect(first[running.key]).toBe(variantFor(running.key, running.variants, 'install-anon-1'));
    expect(first).not.toHaveProperty(draft.key);
    expect(first).not.toHaveProperty(webOnly.key);
    expect(first).not.toHaveProperty(stopped.key);
    expect(await assignments('install-anon-1')).toEqual(first);
    expect((await assignments('install-anon-1', 'web'))[webOnly.key]).toBeDefined();
  });

  it('hashes the rider once signed in: the same variant on every device', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const experiment = await define(admin);
    const expected = variantFor(experiment.key, HALVES, rider._id);
    for (const device of ['phone-1', 'tablet-2', 'laptop-3']) {
      expect((await assignments(device, 'ios', rider))[experiment.key]).toBe(expected);
    }
  });

  it('gives excluded accounts control', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin, {
      variants: [
        { key: 'control', weight: 1 },
        { key: 'treatment', weight: 99 },
      ],
    });
    const optedOut = await register(api);
    const res = await adminCall(admin, 'PATCH', `/api/admin/users/${optedOut._id}`, { analyticsExcluded: true });
    expect(res.status).toBe(200);
    for (const account of [admin, optedOut]) {
      for (const device of ['d-1', 'd-2', 'd-3', 'd-4']) {
        expect((await assignments(device, 'ios', account))[experiment.key]).toBe('control');
      }
    }
  });

  it('keeps at sign-in the variant the installation was exposed to, for the rider on every device', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin);
    const rider = await register(api);
    const ridersOwn = variantFor(experiment.key, HALVES, rider._id);
    // An installation whose own hash gives the other variant.
    const device = Array.from({ length: 50 }, (_, i) => `device-${i}`).find(
      (id) => variantFor(experiment.key, HALVES, id) !== ridersOwn,
    )!;
    const shown = variantFor(experiment.key, HALVES, device);
    expect((await assignments(device))[experiment.key]).toBe(shown);
    await sendEvents([exposure(experiment.key, shown, { anonymousId: device })]);

    expect((await assignments(device, 'ios', rider))[experiment.key]).toBe(shown);
    expect((await assignments('another-device', 'android', rider))[experiment.key]).toBe(shown);
    const rows = await exposuresOf(experiment.key);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.installationId === device)?.adoptedBy?.toHexString()).toBe(rider._id);
    expect(rows.find((row) => row.userId)).toMatchObject({ variant: shown, adoptedFrom: device });

    // Someone else signing in on that installation later is not bound by it.
    const other = await register(api);
    expect((await assignments(device, 'ios', other))[experiment.key]).toBe(
      variantFor(experiment.key, HALVES, other._id),
    );
  });

  it('refuses a missing or malformed installation id or platform with a 400 naming it', async () => {
    for (const query of ['platform=ios', 'installationId=a%20b&platform=ios', 'installationId=abc&platform=tv']) {
      const res = await api.fetch(`/api/experiments/assignments?${query}`);
      expect(res.status).toBe(400);
      expect((await res.json<any>()).details.length).toBeGreaterThan(0);
    }
  });
});

describe('experiment_exposed events', () => {
  it('quarantines an unknown experiment key or variant', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin);
    const answer = await sendEvents([exposure('no_such_experiment', 'control'), exposure(experiment.key, 'purple')]);
    expect(answer.results.map((result) => [result.status, result.reason])).toEqual([
      ['quarantined', 'unknown-experiment'],
      ['quarantined', 'unknown-experiment'],
    ]);
    expect(await exposuresOf(experiment.key)).toEqual([]);
  });

  it('keeps one row per unit: retries are duplicates, the earliest exposure time wins, the first variant stays', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin);
    const rider = await register(api);
    const first = exposure(experiment.key, 'treatment', { userId: rider._id, anonymousId: 'phone-x' });
    expect((await sendEvents([first], rider)).results[0]!.status).toBe('accepted');
    expect((await sendEvents([first], rider)).results[0]!.status).toBe('duplicate');
    const earlier = new Date(HOUR_AGO.getTime() - 30 * 60 * 1000);
    await sendEvents(
      [exposure(experiment.key, 'control', { userId: rider._id, occurredAt: earlier.toISOString() })],
      rider,
    );
    const rows = await exposuresOf(experiment.key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ variant: 'treatment', installationId: null, firstExposedAt: earlier });
    expect(rows[0]!.userId.toHexString()).toBe(rider._id);
  });

  it('stores the event of a draft experiment but records no exposure', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin, { status: 'draft' });
    expect((await sendEvents([exposure(experiment.key, 'control')])).results[0]!.status).toBe('accepted');
    expect(await exposuresOf(experiment.key)).toEqual([]);
  });

  it('removes the exposures of a deleted rider, adopted installations included', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin);
    const rider = await register(api);
    await sendEvents([exposure(experiment.key, 'treatment', { anonymousId: 'shared-tablet' })]);
    await assignments('shared-tablet', 'ios', rider);
    expect(await exposuresOf(experiment.key)).toHaveLength(2);
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    expect(await exposuresOf(experiment.key)).toEqual([]);
  });
});

/** Stores exposures straight into the database, as ingestion would after the events. */
async function seedExposures(
  db: Db,
  experimentKey: string,
  rows: {
    userId?: ObjectId;
    installationId?: string;
    variant: string;
    first: Date;
    adoptedBy?: ObjectId;
    adoptedFrom?: string;
  }[],
) {
  await db.collection('experiment_exposures').insertMany(
    rows.map((row) => ({
      _id: new ObjectId(),
      experimentKey,
      userId: row.userId ?? null,
      installationId: row.userId ? null : (row.installationId ?? null),
      variant: row.variant,
      firstExposedAt: row.first,
      ...(row.adoptedBy ? { adoptedBy: row.adoptedBy } : {}),
      ...(row.adoptedFrom ? { adoptedFrom: row.adoptedFrom } : {}),
      createdAt: row.first,
      updatedAt: row.first,
    })),
  );
}

describe('GET /api/admin/experiments/:key/results', () => {
  it('computes units, conversions, rates, the Wald interval and the sample-ratio check on a hand-worked dataset', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin, { primaryMetric: 'discovery' });
    const T = '2025-03-03T00:00:00.000Z';
    const T0 = at(T);
    await api.db(async (db) => {
      const created = at('2025-01-01T00:00:00.000Z');
      const [c1, c2, c3, t1, t2, t3, t4, t5, excluded] = [
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created),
        await seedRider(db, created, { isBot: true }),
      ];
      await seedExposures(db, experiment.key, [
        { userId: c1, variant: 'control', first: T0 },
        { userId: c2, variant: 'control', first: T0 },
        { userId: c3, variant: 'control', first: T0 },
        { installationId: 'inst-c4', variant: 'control', first: T0 },
        { userId: t1, variant: 'treatment', first: T0 },
        { userId: t2, variant: 'treatment', first: T0 },
        { userId: t3, variant: 'treatment', first: T0 },
        // t4 signed in on an exposed installation: one unit, exposed since the installation's exposure.
        { installationId: 'inst-t4', variant: 'treatment', first: at(T, -DAY), adoptedBy: t4 },
        { userId: t4, variant: 'treatment', first: at(T, -DAY), adoptedFrom: 'inst-t4' },
        { userId: excluded, variant: 'treatment', first: T0 },
      ]);
      await seedEvents(db, [
        { name: 'spot_saved', at: at(T, DAY), userId: c1 }, // converts
        { name: 'spot_saved', at: at(T, -60_000), userId: c2 }, // before exposure
        { name: 'spot_saved', at: at(T, 7 * DAY), userId: c3 }, // the window's end is outside
        { name: 'spot_directions_opened', at: at(T, 2 * DAY), envelope: { anonymousId: 'inst-c4' } }, // converts
        { name: 'spot_saved', at: T0, userId: t1 }, // at the exposure itself: converts
        { name: 'event_calendar_added', at: at(T, 3 * DAY), userId: t2 }, // a client-counted action: converts
        { name: 'trick_added', at: at(T, DAY), userId: t3 }, // another domain
        { name: 'spot_saved', at: at(T, DAY), userId: t3, platform: 'ios' }, // the client copy of a server-counted action
        { name: 'spot_saved', at: at(T, 5 * DAY), userId: t4 }, // within 7 days of the installation's exposure
        { name: 'spot_saved', at: at(T, DAY), userId: t5 }, // never exposed
        { name: 'spot_saved', at: at(T, DAY), userId: excluded },
      ]);
    });
    const res = await adminCall(admin, 'GET', `/api/admin/experiments/${experiment.key}/results`);
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body).toMatchObject({
      key: experiment.key,
      status: 'running',
      primaryMetric: 'discovery',
      conversionWindowDays: 7,
      excludedUnits: 1,
      sampleRatio: {
        test: 'chi-square goodness of fit against the weights',
        chiSquare: 0,
        degreesOfFreedom: 1,
        pValue: 1,
        threshold: 0.001,
        mismatch: false,
      },
    });
    const [control, treatment] = body.variants;
    expect(control).toEqual({
      variant: 'control',
      weight: 50,
      exposedUnits: 4,
      convertedUnits: 2,
      rate: 0.5,
      differenceToControl: null,
    });
    expect(treatment).toMatchObject({ variant: 'treatment', exposedUnits: 4, convertedUnits: 3, rate: 0.75 });
    // d = 0.25; se = √(0.75·0.25/4 + 0.5·0.5/4) = √0.109375 = 0.3307189; 1.959964·se = 0.6481972.
    expect(treatment.differenceToControl.difference).toBeCloseTo(0.25, 12);
    expect(treatment.differenceToControl.low).toBeCloseTo(-0.3981972, 6);
    expect(treatment.differenceToControl.high).toBeCloseTo(0.8981972, 6);

    // Stopping keeps the data: the same figures after the stop.
    await adminCall(admin, 'PATCH', `/api/admin/experiments/${experiment.key}`, { status: 'stopped' });
    const after = await (await adminCall(admin, 'GET', `/api/admin/experiments/${experiment.key}/results`)).json<any>();
    expect(after.variants).toEqual(body.variants);
    expect(after.status).toBe('stopped');
  });

  it('flags a sample-ratio mismatch: 300 against 200 on a 50/50 split (chi-square 20, p ≈ 7.7e−6)', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin);
    const T0 = at('2025-04-07T00:00:00.000Z');
    await api.db((db) =>
      seedExposures(
        db,
        experiment.key,
        Array.from({ length: 500 }, (_, i) => ({
          installationId: `skew-${i}`,
          variant: i < 300 ? 'control' : 'treatment',
          first: T0,
        })),
      ),
    );
    const body = await (await adminCall(admin, 'GET', `/api/admin/experiments/${experiment.key}/results`)).json<any>();
    expect(body.variants.map((v: { exposedUnits: number }) => v.exposedUnits)).toEqual([300, 200]);
    expect(body.sampleRatio.chiSquare).toBeCloseTo(20, 10);
    expect(body.sampleRatio.pValue).toBeCloseTo(7.744e-6, 8);
    expect(body.sampleRatio.mismatch).toBe(true);
  });

  it('answers zeros and no p-value before any exposure', async () => {
    const admin = await registerAdmin(api);
    const experiment = await define(admin);
    const body = await (await adminCall(admin, 'GET', `/api/admin/experiments/${experiment.key}/results`)).json<any>();
    expect(body.variants.map((v: { exposedUnits: number; rate: null }) => [v.exposedUnits, v.rate])).toEqual([
      [0, null],
      [0, null],
    ]);
    expect(body.sampleRatio.pValue).toBeNull();
  });
});

describeAccessChecks(api, [
  { method: 'GET', path: '/api/admin/experiments', check: 'admin' },
  { method: 'POST', path: '/api/admin/experiments', check: 'admin', json: { key: 'x' } },
  { method: 'GET', path: '/api/admin/experiments/some_key', check: 'admin' },
  { method: 'PATCH', path: '/api/admin/experiments/some_key', check: 'admin', json: { status: 'running' } },
  { method: 'GET', path: '/api/admin/experiments/some_key/results', check: 'admin' },
]);
