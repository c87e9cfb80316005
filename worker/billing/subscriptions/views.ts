import type { SubscriptionState } from '../documents';
import { FREE_PLAN } from './plans';

/** The caller's subscription (product decisions); the provider bookkeeping (event id and time) stays inside. */
export function subscriptionView(subscription: SubscriptionState | undefined) {
  if (!subscription) return { plan: FREE_PLAN, status: 'active' };
  return {
    plan: subscription.plan,
    status: subscription.status,
    ...(subscription.interval ? { interval: subscription.interval } : {}),
    ...(subscription.renewsAt ? { renewsAt: subscription.renewsAt.toISOString() } : {}),
  };
}
