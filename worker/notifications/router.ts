import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { notificationPreferenceRoutes } from './preferences/routes';
import { adminPushRoutes, pushRoutes } from './push/routes';
import { pushTokenRoutes } from './push-tokens/routes';

/** Notifications: push tokens and web push subscriptions, the rider's preferences, and push itself. */
export const notificationsRoutes = createRouter<AppEnv>()
  .route('/api/push-tokens', pushTokenRoutes)
  .route('/api/users', notificationPreferenceRoutes)
  .route('/api/push', pushRoutes)
  .route('/api/admin', adminPushRoutes);
