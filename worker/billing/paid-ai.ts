import { positiveIntSetting } from '../platform/config';
import type { Env } from '../platform/env';
import { LIMITS } from '../platform/limits';

// What AI work costs and what each plan gets free, in one place: the chat routes, the
// credit service, the monthly grant and the reading routes all take their numbers from here.
// Core actions (every route that is not AI work) never touch credits, nor does AI work that costs
// nothing to make (the offline companion, the local speech engine: the caller says which is priced).

export type Plan = 'free' | 'premium';

export interface PaidAiSettings {
  /** Companion replies a day taken from the plan's allowance before credits are spent. */
  dailyReplies: Record<Plan, number>;
  /** USD micros one credit stands for: a reply costs its model cost in credits, rounded up. */
  creditMicros: number;
  /** Reserved before a paid reply: its most. A reply never costs more, and an unlisted model's reply costs this. */
  replyMaxCredits: number;
  /** A spoken reply for a free rider: credits per 1,000 characters, at least one. */
  speechCreditsPer1kChars: number;
  /** Credits granted to a premium rider once per calendar month. */
  premiumMonthlyCredits: number;
}

/** The settings (README, Configuration), with the defaults in worker/platform/limits.ts. */
export function paidAiSettings(env: Env): PaidAiSettings {
  const d = LIMITS.aiCredits;
  return {
    dailyReplies: {
      free: positiveIntSetting(env, 'AI_DAILY_REPLIES_FREE', d.dailyRepliesFree),
      premium: positiveIntSetting(env, 'AI_DAILY_REPLIES_PREMIUM', d.dailyRepliesPremium),
    },
    creditMicros: positiveIntSetting(env, 'AI_CREDIT_MICROS', d.creditMicros),
    replyMaxCredits: positiveIntSetting(env, 'AI_REPLY_MAX_CREDITS', d.replyMaxCredits),
    speechCreditsPer1kChars: positiveIntSetting(env, 'AI_SPEECH_CREDITS_PER_1K_CHARS', d.speechCreditsPer1kChars),
    premiumMonthlyCredits: positiveIntSetting(env, 'AI_PREMIUM_MONTHLY_CREDITS', d.premiumMonthlyCredits),
  };
}

/** A paid reply's credits from its model cost: at least one, never more than was reserved. */
export function replyCredits(costMicros: number | null, settings: PaidAiSettings): number {
  if (costMicros === null) return settings.replyMaxCredits;
  return Math.min(settings.replyMaxCredits, Math.max(1, Math.ceil(costMicros / settings.creditMicros)));
}

/** A free rider's spoken reply: priced by its characters, at least one credit. */
export function speechCredits(characters: number, settings: PaidAiSettings): number {
  return Math.max(1, Math.ceil((characters * settings.speechCreditsPer1kChars) / 1000));
}

/** Priced speech costs credits on the free plan only. */
export const speechIsPaid = (plan: Plan) => plan === 'free';

/** The allowance period: the UTC calendar day, as YYYY-MM-DD. */
export const allowanceDay = (now: Date) => now.toISOString().slice(0, 10);

/** When the allowance of `now`'s day resets: the next UTC midnight. */
export function allowanceResetsAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The monthly grant's period: the UTC calendar month, as YYYY-MM. */
export const grantMonth = (now: Date) => now.toISOString().slice(0, 7);
