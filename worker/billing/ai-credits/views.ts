import type { CreditLedgerDoc } from '../documents';

/** A ledger entry as its rider sees it: no idempotency keys, no admin id. */
export const ledgerEntryView = (entry: CreditLedgerDoc) => ({
  _id: entry._id.toHexString(),
  kind: entry.kind,
  amount: entry.amount,
  ...(entry.charged !== undefined ? { charged: entry.charged } : {}),
  ...(entry.operation ? { operation: entry.operation } : {}),
  ...(entry.reservationId ? { reservationId: entry.reservationId } : {}),
  ...(entry.reason ? { reason: entry.reason } : {}),
  createdAt: entry.createdAt.toISOString(),
});
