import type { SubscriptionState } from './documents';

/** Premium access needs both: plan `premium` and status `active` (interface spec, User). */
export function hasPremium(subscription: SubscriptionState | undefined | null): boolean {
  return subscription?.plan === 'premium' && subscription.status === 'active';
}
