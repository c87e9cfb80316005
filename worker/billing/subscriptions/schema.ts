import { z } from '@hono/zod-openapi';
import { IdString } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { BILLING_INTERVALS, CREDITS_PURCHASED, PAID_PLANS, PAYMENT_EVENT_TYPES, SUBSCRIPTION_STATUSES } from './plans';

const Timestamp = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
  .transform((iso) => new Date(iso));

const eventId = z.string().min(1).max(LIMITS.paymentEventIdMax).describe('the provider event id; applied at most once');

/** A subscription event (product decisions, "Subscriptions"); unknown extra fields are ignored. */
const SubscriptionEvent = z.object({
  id: eventId,
  type: z.enum(PAYMENT_EVENT_TYPES),
  created: Timestamp.describe("the event's own time; an older event never moves a subscription back"),
  data: z.object({
    userId: IdString,
    plan: z.enum(PAID_PLANS),
    interval: z.enum(BILLING_INTERVALS),
    status: z.enum(SUBSCRIPTION_STATUSES),
    renewsAt: Timestamp.nullable().optional(),
  }),
});

/** A purchase of AI credits: added to the rider's balance once, whatever the delivery order. */
const CreditsPurchasedEvent = z.object({
  id: eventId,
  type: z.literal(CREDITS_PURCHASED),
  created: Timestamp.describe("the event's own time"),
  data: z.object({
    userId: IdString,
    credits: z.number().int().min(1).max(LIMITS.aiCredits.purchaseMax).describe('credits bought'),
  }),
});

/** The payment provider's webhook body: a subscription event or a credit purchase. */
export const PaymentEvent = z
  .discriminatedUnion('type', [SubscriptionEvent, CreditsPurchasedEvent])
  .openapi('PaymentEvent');

export type PaymentEventBody = z.output<typeof PaymentEvent>;
export type SubscriptionEventBody = z.output<typeof SubscriptionEvent>;
export type CreditsPurchasedBody = z.output<typeof CreditsPurchasedEvent>;

export const PaymentEventReceipt = z.object({
  received: z.literal(true),
  outcome: z
    .enum(['applied', 'duplicate', 'stale', 'unknown-user'])
    .describe(
      'applied; duplicate (this event id was seen before: nothing changed); stale (older than the event last applied for the user: nothing changed); unknown-user (no such account: nothing changed)',
    ),
});

export const Subscription = z
  .object({
    plan: z.string().describe('"free" without a subscription, else the paid plan, e.g. "premium"'),
    status: z.string().describe('active, canceled, expired or past_due; premium access needs plan premium and active'),
    interval: z.enum(BILLING_INTERVALS).optional(),
    renewsAt: z.string().optional(),
  })
  .openapi('Subscription');

export const Product = z
  .object({
    plan: z.enum(PAID_PLANS),
    interval: z.enum(BILLING_INTERVALS),
    price: z.number().describe('per interval, in `currency`'),
    currency: z.literal('USD'),
  })
  .openapi('Product');

export const ProductPage = pageOf(Product);
