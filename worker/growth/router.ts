import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { analyticsIngestRoutes } from './analytics/ingest-routes';
import { clientHeartbeatRoutes } from './client-heartbeat/routes';
import { analyticsDashboardPageRoutes, analyticsDashboardRoutes } from './dashboard/routes';
import { adminExperimentRoutes } from './experiments/admin-routes';
import { experimentRoutes } from './experiments/routes';
import { adminVersionPolicyRoutes } from './version-policy/admin-routes';
import { versionPolicyRoutes } from './version-policy/routes';

/** Growth: analytics with its dashboard, experiments, and the client versions riders run. */
export const growthRoutes = createRouter<AppEnv>()
  .route('/api/admin', adminExperimentRoutes)
  .route('/api/experiments', experimentRoutes)
  .route('/api', clientHeartbeatRoutes)
  .route('/api/mobile/version-policy', versionPolicyRoutes)
  .route('/api/admin', adminVersionPolicyRoutes)
  .route('/api/analytics', analyticsIngestRoutes)
  .route('/api/analytics/dashboard', analyticsDashboardRoutes)
  .route('/', analyticsDashboardPageRoutes);
