import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { BILLING_COLLECTIONS } from './collections';

/** What billing stores, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const BILLING_STORED_SHAPES: StoredShapes<typeof BILLING_COLLECTIONS> = {
  payment_events: { _id: 'id', created: 'date', userId: 'id', receivedAt: 'date' },
  credit_accounts: {
    ...STAMPED,
    userId: 'id',
    balance: 'number',
    reserved: 'number',
    'holds.$.amount': 'number',
    'holds.$.at': 'date',
  },
  credit_ledger: {
    _id: 'id',
    userId: 'id',
    amount: 'number',
    charged: 'number',
    adminId: 'id',
    appliedAt: 'date',
    createdAt: 'date',
  },
  usage_events: { _id: 'id', userId: 'id', costMicros: 'number', creditsCharged: 'number', at: 'date' },
  usage_reconciliations: { _id: 'id', createdAt: 'date' },
};
