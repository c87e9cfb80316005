import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { MissingSettingError, type SettingName } from '../../platform/setting-error';

// The subscription vocabulary and the product catalogue, in one place: the webhook's schema,
// the views and the plans route import these (product decisions, "Subscriptions").

/** The plan of a rider with no subscription (product decisions). */
export const FREE_PLAN = 'free';
export const PAID_PLANS = ['premium'] as const;
export const BILLING_INTERVALS = ['month', 'year'] as const;
export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'expired', 'past_due'] as const;
export const PAYMENT_EVENT_TYPES = [
  'subscription.activated',
  'subscription.renewed',
  'subscription.canceled',
  'subscription.expired',
  'subscription.past_due',
] as const;

/** The credit purchase event; its body carries `data.credits` instead of a subscription. */
export const CREDITS_PURCHASED = 'credits.purchased';

export type PaidPlan = (typeof PAID_PLANS)[number];
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

export interface Product {
  plan: PaidPlan;
  interval: BillingInterval;
  price: number;
  currency: 'USD';
}

const YEARLY_PRICE: SettingName = 'PREMIUM_YEARLY_PRICE_USD';

/** The premium products on sale; the yearly price is a setting (wrangler.toml `[vars]` holds the default). */
export function productCatalogue(env: Env): Product[] {
  return [
    { plan: 'premium', interval: 'month', price: LIMITS.premiumMonthlyPriceUsd, currency: 'USD' },
    { plan: 'premium', interval: 'year', price: yearlyPrice(env), currency: 'USD' },
  ];
}

/** A price in dollars and cents; anything else is refused by name rather than shown to buyers. */
function yearlyPrice(env: Env): number {
  const raw = env[YEARLY_PRICE]?.trim();
  if (!raw) throw new MissingSettingError(YEARLY_PRICE);
  if (!/^\d+(\.\d{1,2})?$/.test(raw) || Number(raw) <= 0)
    throw new MissingSettingError(YEARLY_PRICE, `must be a positive amount in USD such as 100 or 99.99, not "${raw}"`);
  return Number(raw);
}
