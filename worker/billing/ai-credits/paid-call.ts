import type { ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import type { PaidOperation } from '../documents';
import { allowanceDay, type Plan, paidAiSettings, speechCredits, speechIsPaid } from '../paid-ai';
import { firstExhaustion, returnAllowance, takeAllowance } from './allowance';
import { finishReservation, type Reservation, reserveCredits } from './reservations';
import { writeUsageEvent } from './usage';

// Paying for one AI call: before the model runs, take it from the allowance or reserve credit;
// after, settle it (and meter it) or give it back. The companion's routes call only these, and
// say whether the call is priced (its model or speech engine costs money): one that is not is free.

/**
 * How a call is paid for. `plan`: it is free on the rider's plan (premium speech); `free`: it costs
 * nothing to make (the offline companion, the local speech engine), so nothing is taken.
 */
export type Payment =
  | { by: 'allowance'; userId: ObjectId; day: string }
  | { by: 'credits'; userId: ObjectId; reservation: Reservation }
  | { by: 'plan'; userId: ObjectId }
  | { by: 'free'; userId: ObjectId };

/** Neither allowance nor credit covers the call: what the 402 tells the rider. */
export interface PaymentRefused {
  refused: true;
  balance: number;
  needed: number;
}

/**
 * Pays for a companion reply before the model is asked: nothing when its model is not priced, else
 * from today's allowance while it lasts, then by reserving the reply's most (AI_REPLY_MAX_CREDITS).
 * The first refusal of the allowance each day records `ai_allowance_exhausted`.
 */
export async function payForReply(
  store: Store,
  env: Env,
  caller: { userId: ObjectId; plan: Plan; surface: 'dm' | 'bot' },
  priced: boolean,
  now = new Date(),
): Promise<Payment | PaymentRefused> {
  const settings = paidAiSettings(env);
  const { userId, plan } = caller;
  if (!priced) return { by: 'free', userId };
  const day = allowanceDay(now);
  if (await takeAllowance(store, userId, settings.dailyReplies[plan], day)) return { by: 'allowance', userId, day };
  if (await firstExhaustion(store, userId, day)) {
    await recordServerEvent(store, userId, 'ai_allowance_exhausted', { surface: caller.surface, plan });
  }
  return reserveOrRefuse(store, userId, settings.replyMaxCredits, 'chat');
}

/** Pays for speaking a reply of `characters`: nothing when its engine is not priced, else free on premium, credits on the free plan. */
export async function payForSpeech(
  store: Store,
  env: Env,
  caller: { userId: ObjectId; plan: Plan },
  characters: number,
  priced: boolean,
): Promise<Payment | PaymentRefused> {
  if (!priced) return { by: 'free', userId: caller.userId };
  if (!speechIsPaid(caller.plan)) return { by: 'plan', userId: caller.userId };
  return reserveOrRefuse(store, caller.userId, speechCredits(characters, paidAiSettings(env)), 'voice');
}

async function reserveOrRefuse(
  store: Store,
  userId: ObjectId,
  amount: number,
  operation: PaidOperation,
): Promise<Payment | PaymentRefused> {
  const reserved = await reserveCredits(store, userId, amount, operation);
  if ('short' in reserved) return { refused: true, balance: reserved.balance, needed: amount };
  return { by: 'credits', userId, reservation: reserved };
}

export const isRefused = (payment: Payment | PaymentRefused): payment is PaymentRefused => 'refused' in payment;

/** The call produced nothing (the model failed, the voice box did not speak): the payment goes back. */
export async function refundCall(store: Store, payment: Payment): Promise<void> {
  if (payment.by === 'allowance') await returnAllowance(store, payment.userId, payment.day);
  if (payment.by === 'credits') await finishReservation(store, payment.reservation, { kind: 'release' });
}

/** What one finished call used: counts and cost, never text. */
export interface CallUsage {
  /** Unique per call (the stored message it answers): a retried settle meters it once. */
  callId: string;
  operation: PaidOperation;
  model: string;
  inputTokens?: number;
  outputTokens?: number;
  characters?: number;
  costMicros: number | null;
  /** What the call costs in credits when paid with credits (capped at the reservation). */
  credits: number;
}

/**
 * Ends a paid call in one sequence: the reservation settled at the call's cost (the rest
 * released), then its usage row at the same instant, then `ai_credit_debited`. Returns the
 * credits charged (0 within the allowance, for free work, or when the sweep had already released it).
 */
export async function settleCall(store: Store, payment: Payment, usage: CallUsage): Promise<number> {
  const at = new Date();
  let charged = 0;
  if (payment.by === 'credits') {
    const decided = await finishReservation(store, payment.reservation, { kind: 'settle', charged: usage.credits }, at);
    charged = decided.kind === 'settle' ? (decided.charged ?? 0) : 0;
  }
  await writeUsageEvent(store, {
    callId: usage.callId,
    userId: payment.userId,
    kind: usage.operation,
    model: usage.model,
    ...(usage.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
    ...(usage.characters !== undefined ? { characters: usage.characters } : {}),
    costMicros: usage.costMicros,
    creditsCharged: charged,
    ...(payment.by === 'credits' ? { reservationId: payment.reservation.id } : {}),
    at,
  });
  if (charged > 0) {
    await recordServerEvent(store, payment.userId, 'ai_credit_debited', {
      credits: charged,
      operation: usage.operation,
    });
  }
  return charged;
}
