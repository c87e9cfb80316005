import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { adminAiCreditRoutes, myAiCreditRoutes } from './ai-credits/routes';
import { subscriptionRoutes } from './subscriptions/routes';

/** Billing: subscriptions with their payment events, and AI credits. */
export const billingRoutes = createRouter<AppEnv>()
  .route('/api', subscriptionRoutes)
  .route('/api/users', myAiCreditRoutes)
  .route('/api/admin', adminAiCreditRoutes);
