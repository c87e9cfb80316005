import type { AppEnv } from './app-env';
import { healthRoutes } from './health/routes';
import { createRouter } from './http/openapi';
import { objectCounterRoutes } from './object-counters/routes';
import { opsFiguresRoutes, opsPageRoutes } from './ops-page/routes';
import { realtimeRoutes } from './realtime/routes';

/** The service's own routes: health, the socket shards, Durable Object counters and the ops page with its figures. */
export const platformRoutes = createRouter<AppEnv>()
  .route('/api/health', healthRoutes)
  .route('/', realtimeRoutes)
  .route('/api/admin', objectCounterRoutes)
  .route('/api/admin', opsFiguresRoutes)
  .route('/', opsPageRoutes);
