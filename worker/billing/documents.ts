import type { ObjectId } from 'mongodb';
import type { StoredDoc } from '../platform/db/stored-doc';

export interface SubscriptionState {
  plan: string;
  status: string;
  renewsAt?: Date | null;
  /** Set by the payment webhook (worker/billing/subscriptions/service.ts): billing interval of the paid plan. */
  interval?: 'month' | 'year';
  /** The provider event last applied, and its own time: older events never move the subscription back. */
  eventId?: string;
  eventCreatedAt?: Date;
}

export interface PaymentEventDoc {
  _id: ObjectId;
  providerEventId: string;
  type: string;
  /** The provider's own event time. */
  created: Date;
  /** Unset when the account is deleted or was never found. */
  userId?: ObjectId;
  receivedAt: Date;
  /** What applying it did; absent while (or if) the first delivery has not finished applying it. */
  outcome?: 'applied' | 'stale' | 'unknown-user';
}

// Paid AI work (worker/billing/ai-credits/): the per-rider account, the append-only ledger and the usage meter.

/** What a ledger entry records; `amount` is always its effect on the spendable balance. */
export const LEDGER_KINDS = ['grant', 'purchase', 'reserve', 'settle', 'release', 'expire'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The AI calls that cost credits (also `ai_credit_debited`'s reason and `usage_events.kind`). */
export const PAID_OPERATIONS = ['chat', 'voice'] as const;
export type PaidOperation = (typeof PAID_OPERATIONS)[number];

/** Credit held for one AI call until it is settled or released (worker/billing/ai-credits/reservations.ts). */
export interface CreditHold {
  id: string;
  amount: number;
  operation: PaidOperation;
  at: Date;
}

/** One rider's credit: `balance` is spendable now; `reserved` is the sum of `holds`. */
export interface CreditAccountDoc extends StoredDoc {
  userId: ObjectId;
  balance: number;
  reserved: number;
  holds: CreditHold[];
  /** Idempotency keys of the newest credits applied, so a retried grant or purchase is applied once. */
  appliedKeys: string[];
  /** Replies taken from the daily allowance on `day` (a UTC date, YYYY-MM-DD). */
  allowance?: { day: string; used: number };
  /** The UTC day `ai_allowance_exhausted` was last recorded: once per allowance period. */
  allowanceExhaustedDay?: string;
}

export interface CreditLedgerDoc {
  _id: ObjectId;
  /** After an account deletion: a random id that cannot be traced back to the rider. */
  userId: ObjectId;
  kind: LedgerKind;
  /** The entry's effect on the spendable balance: the balance is the sum of these. */
  amount: number;
  /** Unique: the same grant, purchase or reservation step is entered once however often it is retried. */
  idempotencyKey: string;
  reservationId?: string;
  /** On settle: the credits the call cost (the reserve minus what this entry gives back). */
  charged?: number;
  operation?: PaidOperation;
  /** On an admin grant: why, and which admin (unset when that admin's account is deleted). */
  reason?: string;
  adminId?: ObjectId;
  providerEventId?: string;
  /** On grants and purchases: set once the balance holds the credit (worker/billing/ai-credits/ledger.ts). */
  appliedAt?: Date;
  createdAt: Date;
}

/** One AI call as billing checks it: counts and cost, never prompt or reply text (usage metering). */
export interface UsageEventDoc {
  _id: ObjectId;
  /** Unique: the call's own id, so a retried settle writes one row. */
  callId: string;
  userId: ObjectId;
  kind: PaidOperation;
  model: string;
  inputTokens?: number;
  outputTokens?: number;
  characters?: number;
  costMicros: number | null;
  /** 0 within the daily allowance or when the call is free for the plan. */
  creditsCharged: number;
  reservationId?: string;
  at: Date;
}

// What billing keeps on the rider's account.
declare module '../accounts/documents' {
  interface UserDoc {
    subscription?: SubscriptionState;
  }
}
