import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { ownModerationRoutes } from './action-log/own-routes';
import { actionLogRoutes } from './action-log/routes';
import { termRoutes } from './word-filter/routes';

/** Moderation: the moderator action log (and what admins and riders do to keep riders' content within the rules). */
export const moderationRoutes = createRouter<AppEnv>()
  .route('/api/admin', actionLogRoutes)
  .route('/api/admin', termRoutes)
  .route('/api/users', ownModerationRoutes);
