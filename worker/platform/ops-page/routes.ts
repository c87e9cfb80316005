import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { adminPageRoutes } from '../http/admin-page-routes';
import { CHART_LIBRARY } from '../http/chart-library';
import { createRouter, defineRoute, jsonResponse } from '../http/openapi';
import { pageAsset } from '../http/page-policy';
import { admin } from '../middleware/admin';
import { OPS_CHART_LIBRARY_PATH, OPS_PAGE, OPS_SCRIPT, OPS_STYLES } from './page';
import { RequestFiguresReport } from './schema';
import { requestFiguresReport } from './service';

const TAGS = ['operations'];

const requests = defineRoute({
  method: 'get',
  path: '/ops/requests',
  tags: TAGS,
  summary:
    'Per route for the last hour: requests, p50/p95 latency, 5xx and 4xx shares, from the local metrics stand-in; in production, where to read them (docs/operations.md)',
  middleware: [admin()] as const,
  responses: { 200: jsonResponse(RequestFiguresReport, 'The figures, or where they are') },
});

/** The figures /admin/ops reads, mounted under /api/admin (admin only). */
export const opsFiguresRoutes = createRouter<AppEnv>().openapi(requests, async (c) =>
  c.json(await requestFiguresReport(c.env, Date.now()), 200),
);

const chartLibrary = defineRoute({
  method: 'get',
  // A page's own file, not an operation a client calls: kept out of the API description.
  hide: true,
  path: OPS_CHART_LIBRARY_PATH,
  tags: TAGS,
  summary: "The ops page's chart library (Chart.js), served from the Worker so the page needs no CDN",
  responses: { 200: { description: 'JavaScript', content: { 'text/javascript': { schema: z.string() } } } },
});

/** The ops page, its script, stylesheet and chart library, mounted at the root (outside /api: no database, no CORS). */
export const opsPageRoutes = adminPageRoutes<AppEnv>({
  page: OPS_PAGE,
  script: OPS_SCRIPT,
  styles: OPS_STYLES,
  name: 'the ops page',
  summary: 'The operations page: an admin signs in on it; its table and charts read GET /api/admin/ops/requests',
  tags: TAGS,
}).openapi(chartLibrary, (c) => pageAsset(c, 'script', CHART_LIBRARY));
