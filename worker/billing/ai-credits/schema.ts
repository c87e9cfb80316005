import { z } from '@hono/zod-openapi';
import { pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { LEDGER_KINDS, PAID_OPERATIONS } from '../documents';

export const AiCredits = z
  .object({
    balance: z.number().int().describe('credits spendable now (reserved credit excluded)'),
    reserved: z.number().int().describe('credits held by AI calls in progress; settled or given back when they end'),
    allowance: z.object({
      used: z.number().int().describe("priced companion replies taken from today's allowance (free work takes none)"),
      limit: z.number().int().describe("the plan's replies a day before credits are spent"),
      resetsAt: z.string().describe('the next UTC midnight'),
    }),
  })
  .openapi('AiCredits');

export const LedgerEntry = z
  .object({
    _id: z.string(),
    kind: z.enum(LEDGER_KINDS),
    amount: z.number().int().describe("the entry's effect on the spendable balance: the balance is the sum of these"),
    charged: z.number().int().optional().describe('on settle: what the call cost'),
    operation: z.enum(PAID_OPERATIONS).optional(),
    reservationId: z.string().optional(),
    reason: z.string().optional().describe('on an admin grant'),
    createdAt: z.string(),
  })
  .openapi('CreditLedgerEntry');

export const LedgerPage = pageOf(LedgerEntry);

export const AdminCreditGrant = z
  .object({
    amount: z.number().int().min(1).max(LIMITS.aiCredits.adminGrantMax).describe('credits to add'),
    reason: z.string().trim().min(1).max(LIMITS.aiCredits.reasonMax).describe('why; kept on the ledger entry'),
  })
  .strict()
  .openapi('AdminCreditGrant');

export const AdminCreditGrantResult = z.object({
  granted: z.number().int(),
  balance: z.number().int().describe("the rider's spendable balance after the grant"),
});

export const UsageReconciliation = z
  .object({
    day: z.string().describe('the UTC day checked, YYYY-MM-DD'),
    ledgerCredits: z.number().int().describe("credits charged by the day's settles in the ledger"),
    usageCredits: z.number().int().describe("credits charged in the day's usage_events rows"),
    difference: z.number().int().describe('ledgerCredits - usageCredits; anything but 0 is a bug (and logged)'),
    settles: z.number().int(),
    calls: z.number().int().describe('AI calls metered that day, within the allowance or on credits'),
    checkedAt: z.string(),
  })
  .openapi('UsageReconciliation');

export const UsageReconciliationPage = pageOf(UsageReconciliation);
