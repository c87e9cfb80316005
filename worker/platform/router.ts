import type { AppEnv } from './app-env';
import { healthRoutes } from './health/routes';
import { createRouter } from './http/openapi';
import { objectCounterRoutes } from './object-counters/routes';
import { realtimeRoutes } from './realtime/routes';

/** The service's own routes: health, the socket shards and Durable Object counters. */
export const platformRoutes = createRouter<AppEnv>()
  .route('/api/health', healthRoutes)
  .route('/', realtimeRoutes)
  .route('/api/admin', objectCounterRoutes);
