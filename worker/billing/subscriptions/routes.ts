import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { auth } from '../../platform/middleware/auth';
import { logEvent } from '../../platform/ops/log-line';
import { PAYMENT_SIGNATURE_SCHEME, paymentSignature } from './payment-signature';
import { productCatalogue } from './plans';
import { PaymentEvent, PaymentEventReceipt, ProductPage, Subscription } from './schema';
import { applyPaymentEvent } from './service';
import { subscriptionView } from './views';

const TAGS = ['subscriptions'];

const getMySubscription = defineRoute({
  method: 'get',
  path: '/users/me/subscription',
  tags: TAGS,
  summary: 'Your plan and its status',
  description: 'A rider who never subscribed has `{plan: "free", status: "active"}`.',
  middleware: [auth()] as const,
  responses: { 200: jsonResponse(Subscription, 'The subscription'), 404: errorResponse('No such account') },
});

const listPlans = defineRoute({
  method: 'get',
  path: '/subscriptions/plans',
  tags: TAGS,
  summary: 'The premium products and their prices',
  description: 'Monthly (10 USD, interface spec) and yearly (the PREMIUM_YEARLY_PRICE_USD setting); one page.',
  responses: { 200: jsonResponse(ProductPage, 'The products on sale') },
});

const paymentWebhook = defineRoute({
  method: 'post',
  path: '/webhooks/payments',
  tags: TAGS,
  summary: "The payment provider's subscription events and AI credit purchases",
  description:
    "Signed with `x-signature`, checked before the body is read. Every signed, valid event answers 200, including replays, stale events and unknown accounts (the provider retries anything else, and none of those would ever succeed); `outcome` says what happened. `credits.purchased` (`data: {userId, credits}`) adds the credits to the rider's AI credit balance once per event id.",
  middleware: [paymentSignature()] as const,
  request: jsonBody(PaymentEvent),
  responses: { 200: jsonResponse(PaymentEventReceipt, 'Received; `outcome` says whether it changed anything') },
});

/** The rider's subscription, the product catalogue, and the payment provider's webhook. */
export const subscriptionRoutes = createRouter<AppEnv>()
  .openapi(getMySubscription, (c) => c.json(subscriptionView(c.var.account.subscription), 200))
  .openapi(listPlans, (c) => c.json({ items: productCatalogue(c.env), nextCursor: null }, 200))
  .openapi(paymentWebhook, async (c) => {
    const event = c.req.valid('json');
    const outcome = await applyPaymentEvent(c.var.db, event);
    if (outcome === 'unknown-user')
      logEvent('payments.event.unknown-account', { paymentEventId: event.id, type: event.type });
    return c.json({ received: true as const, outcome }, 200);
  });

subscriptionRoutes.openAPIRegistry.registerComponent('securitySchemes', 'payment-signature', PAYMENT_SIGNATURE_SCHEME);
