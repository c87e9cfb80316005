import { ObjectId } from 'mongodb';
import { byAccountId } from '../../accounts/users/service';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { addCredits } from '../ai-credits/ledger';
import type { PaymentEventDoc, SubscriptionState } from '../documents';
import { CREDITS_PURCHASED } from './plans';
import type { CreditsPurchasedBody, PaymentEventBody, SubscriptionEventBody } from './schema';

// Every query of the payment webhook. Outcomes come back as values; the route answers 200 for all.

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'unknown-user';
type ApplyOutcome = Exclude<EventOutcome, 'duplicate'> | 'already-applied';

/**
 * Applies one provider event at most once. The ledger row (unique on providerEventId) makes a
 * replay a no-op; the user update itself is conditional on the event being newer than the one
 * last applied, so a delivery that lost the ledger race, or a retry after a crash between the
 * two writes, can safely apply again: only one of them can ever match.
 */
export async function applyPaymentEvent(store: Store, event: PaymentEventBody): Promise<EventOutcome> {
  const userId = new ObjectId(event.data.userId);
  const recorded = await recordEvent(store, event, userId);
  if (!recorded && (await ledgerOutcome(store, event.id))) return 'duplicate';

  const outcome =
    event.type === CREDITS_PURCHASED
      ? await addPurchase(store, userId, event)
      : await setSubscription(store, userId, event);
  if (outcome === 'already-applied') return 'duplicate';
  // A delivery that did not record the event only reports a change it made itself.
  if (!recorded && outcome !== 'applied') return 'duplicate';
  await store.payment_events.updateOne(
    { providerEventId: event.id, outcome: { $exists: false } },
    outcome === 'unknown-user' ? { $set: { outcome }, $unset: { userId: '' } } : { $set: { outcome } },
  );
  return outcome;
}

/**
 * Adds purchased credits under a key made of the event id, so however many deliveries get past
 * the claim above (a retry after a crash), the credit is added once (worker/billing/ai-credits/ledger.ts).
 */
async function addPurchase(store: Store, userId: ObjectId, event: CreditsPurchasedBody): Promise<ApplyOutcome> {
  if (!(await store.users.countDocuments(byAccountId(userId), { limit: 1 }))) return 'unknown-user';
  const outcome = await addCredits(store, userId, {
    kind: 'purchase',
    amount: event.data.credits,
    idempotencyKey: `purchase:${event.id}`,
    providerEventId: event.id,
  });
  return outcome === 'applied' ? 'applied' : 'already-applied';
}

/** Claims the event id in the ledger; false when another delivery already holds it. */
async function recordEvent(store: Store, event: PaymentEventBody, userId: ObjectId): Promise<boolean> {
  const row: PaymentEventDoc = {
    _id: new ObjectId(),
    providerEventId: event.id,
    type: event.type,
    created: event.created,
    userId,
    receivedAt: new Date(),
  };
  return onDuplicateKey(
    async () => {
      await store.payment_events.insertOne(row);
      return true;
    },
    () => false,
  );
}

async function ledgerOutcome(store: Store, providerEventId: string) {
  const row = await store.payment_events.findOne({ providerEventId }, { projection: { outcome: 1 } });
  return row?.outcome;
}

/**
 * Sets the subscription only if this event is newer than the last one applied, in one
 * conditional write (no read-then-write). Events stamped in the same instant are ordered by
 * id, so every delivery order ends in the same state.
 */
async function setSubscription(store: Store, userId: ObjectId, event: SubscriptionEventBody): Promise<ApplyOutcome> {
  const { plan, interval, status, renewsAt } = event.data;
  const subscription: SubscriptionState = {
    plan,
    interval,
    status,
    ...(renewsAt ? { renewsAt } : {}),
    eventId: event.id,
    eventCreatedAt: event.created,
  };
  const { matchedCount } = await store.users.updateOne(
    {
      ...byAccountId(userId),
      $or: [
        { 'subscription.eventCreatedAt': { $exists: false } },
        { 'subscription.eventCreatedAt': { $lt: event.created } },
        { 'subscription.eventCreatedAt': event.created, 'subscription.eventId': { $lt: event.id } },
      ],
    },
    { $set: { subscription, updatedAt: new Date() } },
  );
  if (matchedCount) return 'applied';
  const user = await store.users.findOne(byAccountId(userId), { projection: { 'subscription.eventId': 1 } });
  if (!user) return 'unknown-user';
  return user.subscription?.eventId === event.id ? 'already-applied' : 'stale';
}
