import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { adminPageRoutes } from '../../platform/http/admin-page-routes';
import { CHART_LIBRARY } from '../../platform/http/chart-library';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { pageAsset } from '../../platform/http/page-policy';
import { admin } from '../../platform/middleware/admin';
import { CHART_LIBRARY_PATH, DASHBOARD_PAGE, DASHBOARD_SCRIPT, DASHBOARD_STYLES } from './page';
import { QualityQuery, QualityReport, RetentionQuery, RetentionReport, WprQuery, WprReport } from './schema';
import { dataQuality, signupRetention, weeklyProgressingRiders } from './service';
import { qualityView, retentionView, wprView } from './views';

const TAGS = ['analytics'];

const wpr = defineRoute({
  method: 'get',
  path: '/wpr',
  tags: TAGS,
  summary: 'Weekly progressing riders: distinct riders with a meaningful action per rolling seven-day window',
  middleware: [admin()] as const,
  request: { query: WprQuery },
  responses: { 200: jsonResponse(WprReport, 'One entry per window, oldest first') },
});

const retention = defineRoute({
  method: 'get',
  path: '/retention',
  tags: TAGS,
  summary: 'Weekly signup cohorts with W1..W4 retention, each window once fully elapsed',
  middleware: [admin()] as const,
  request: { query: RetentionQuery },
  responses: { 200: jsonResponse(RetentionReport, 'One entry per cohort week, oldest first') },
});

const quality = defineRoute({
  method: 'get',
  path: '/quality',
  tags: TAGS,
  summary: 'Share of authenticated mobile events carrying version, build, session and identity, against the target',
  middleware: [admin()] as const,
  request: { query: QualityQuery },
  responses: { 200: jsonResponse(QualityReport, 'The share and what is missing') },
});

/** The dashboard figures, mounted under /api/analytics/dashboard (admin only). */
export const analyticsDashboardRoutes = createRouter<AppEnv>()
  .openapi(wpr, async (c) => {
    const { weeks, asOf = new Date() } = c.req.valid('query');
    return c.json(wprView(asOf, await weeklyProgressingRiders(c.var.db, weeks, asOf)), 200);
  })
  .openapi(retention, async (c) => {
    const { weeks, asOf = new Date() } = c.req.valid('query');
    return c.json(retentionView(asOf, await signupRetention(c.var.db, weeks, asOf)), 200);
  })
  .openapi(quality, async (c) => {
    const { days, asOf = new Date() } = c.req.valid('query');
    return c.json(qualityView(await dataQuality(c.var.db, days, asOf)), 200);
  });

const chartLibrary = defineRoute({
  method: 'get',
  // A page's own file, not an operation a client calls: kept out of the API description.
  hide: true,
  path: CHART_LIBRARY_PATH,
  tags: TAGS,
  summary: "The dashboard page's chart library (Chart.js), served from the Worker so the page needs no CDN",
  responses: { 200: { description: 'JavaScript', content: { 'text/javascript': { schema: z.string() } } } },
});

/** The dashboard page, its script, stylesheet and chart library, mounted at the root (outside /api: no database, no CORS). */
export const analyticsDashboardPageRoutes = adminPageRoutes<AppEnv>({
  page: DASHBOARD_PAGE,
  script: DASHBOARD_SCRIPT,
  styles: DASHBOARD_STYLES,
  name: 'the dashboard page',
  summary: 'The analytics dashboard page: an admin signs in on it; its charts read the three routes above',
  tags: TAGS,
}).openapi(chartLibrary, (c) => pageAsset(c, 'script', CHART_LIBRARY));
