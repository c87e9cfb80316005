import { holds } from '../platform/db/collections';
import type { StoredDoc } from '../platform/db/stored-doc';
import type { CreditAccountDoc, CreditLedgerDoc, PaymentEventDoc } from './documents';

/** Billing: payment events and AI credits. Each collection's name and the type of its documents. */
export const BILLING_COLLECTIONS = {
  payment_events: holds<PaymentEventDoc>(),
  credit_accounts: holds<CreditAccountDoc>(),
  credit_ledger: holds<CreditLedgerDoc>(),
  usage_events: holds<StoredDoc>(),
  usage_reconciliations: holds<StoredDoc>(),
};

type BillingCollections = typeof BILLING_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends BillingCollections {}
}
