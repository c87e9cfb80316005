import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { nearestRank } from '../../../worker/platform/ops/request-figures';
import type { RequestFiguresReport } from '../../../worker/platform/ops-page/service';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { AnalyticsEngineStandIn } from '../../support/analytics-engine-stand-in';
import { createApi } from '../../support/worker-api';

// Without the real METRICS binding, as `npm run dev` and the stacks run, points go to the local stand-in
// (METRICS_STAND_IN, vitest.config.ts). Only this file leaves METRICS unbound, so the stand-in holds its traffic alone.
const api = createApi('ops_page', { METRICS: undefined });
const FIGURES = '/api/admin/ops/requests';

type Figures = RequestFiguresReport;

describe('/admin/ops figures from the local stand-in', () => {
  let admin: TestAccount;
  beforeAll(async () => {
    admin = await registerAdmin(api);
    for (let i = 0; i < 5; i++) expect((await api.fetch('/api/feed')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await api.fetch(`/api/feed/${new ObjectId().toHexString()}`)).status).toBe(404);
    expect((await api.fetch('/api/feed/not-an-id')).status).toBe(400);
  });

  it("counts each route's requests with its p50, p95, 5xx and 4xx shares, as the stand-in holds them", async () => {
    const res = await api.fetch(FIGURES, { headers: { 'x-auth-token': admin.token } });
    expect(res.status).toBe(200);
    const figures = (await res.json()) as Figures;
    expect(figures.source).toBe('local-stand-in');
    const feed = figures.routes.find((r) => r.method === 'GET' && r.route === '/api/feed');
    const post = figures.routes.find((r) => r.method === 'GET' && r.route === '/api/feed/:postId');
    expect(feed).toMatchObject({ requests: 5, serverErrorShare: 0, clientErrorShare: 0 });
    expect(post).toMatchObject({ requests: 3, serverErrorShare: 0, clientErrorShare: 1 });

    // The percentiles are the stand-in's own durations', so the page shows what metrics.ts wrote.
    const points = (await api.env.METRICS_STAND_IN!.get(api.env.METRICS_STAND_IN!.idFromName('local')).recent()).filter(
      (p) => p.blobs[0] === '/api/feed' && p.blobs[1] === 'GET',
    );
    const durations = points.map((p) => p.doubles[0]!);
    expect(durations).toHaveLength(5);
    expect(feed).toMatchObject({ p50Ms: nearestRank(durations, 0.5), p95Ms: nearestRank(durations, 0.95) });
    expect(figures.perMinute.reduce((sum, m) => sum + m.requests, 0)).toBeGreaterThanOrEqual(8);
  });

  it('refuses riders and requests without a token as the other admin routes do', async () => {
    const rider = await register(api);
    const none = await api.fetch(FIGURES);
    expect([none.status, await none.text()]).toEqual([401, 'Access denied.']);
    const notAdmin = await api.fetch(FIGURES, { headers: { 'x-auth-token': rider.token } });
    expect([notAdmin.status, await notAdmin.text()]).toEqual([403, 'Access denied. Admin only.']);
  });

  it('serves the page to sign in on, with its chart library beside it', async () => {
    const page = await api.fetch('/admin/ops');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/admin/ops/chart.umd.min.js');
    const library = await api.fetch('/admin/ops/chart.umd.min.js');
    expect(library.status).toBe(200);
    expect(await library.text()).toContain('Chart');
  });
});

describe('/admin/ops where the real binding is bound (production, staging)', () => {
  const production = createApi('ops_page_production', {
    METRICS: new AnalyticsEngineStandIn(),
    METRICS_STAND_IN: undefined,
  });

  it('says the figures are in Analytics Engine, read with the SQL API queries of docs/operations.md, and shows none', async () => {
    const admin = await registerAdmin(production);
    const res = await production.fetch(FIGURES, { headers: { 'x-auth-token': admin.token } });
    expect(res.status).toBe(200);
    const figures = (await res.json()) as Figures;
    expect(figures.source).toBe('analytics-engine');
    expect(figures.note).toContain('docs/operations.md');
    expect(figures.routes).toEqual([]);
  });
});
