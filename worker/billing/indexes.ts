import type { IndexDeclaration } from '../platform/db/indexes';

/** The indexes billing relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const BILLING_INDEXES: IndexDeclaration[] = [
  {
    collection: 'payment_events',
    key: { providerEventId: 1 },
    options: { name: 'providerEventId_unique', unique: true },
    why: 'each provider event is applied at most once',
  },
  {
    collection: 'payment_events',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: "a rider's payment history and account deletion",
  },
  {
    collection: 'credit_accounts',
    key: { userId: 1 },
    options: { name: 'userId_unique', unique: true },
    why: 'one credit account per rider; reservations and grants update it by userId',
  },
  {
    collection: 'credit_accounts',
    key: { 'holds.at': 1 },
    options: { name: 'holds_at' },
    why: 'the sweep finds reservations left by requests that died',
  },
  {
    collection: 'credit_ledger',
    key: { idempotencyKey: 1 },
    options: { name: 'idempotencyKey_unique', unique: true },
    why: 'each grant, purchase and reservation step is entered once however often it is retried',
  },
  {
    collection: 'credit_ledger',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId_id' },
    why: "a rider's ledger newest first, and account deletion",
  },
  {
    collection: 'credit_ledger',
    key: { adminId: 1 },
    options: { name: 'adminId', sparse: true },
    why: 'account deletion detaches the admin from grants they made',
  },
  {
    collection: 'credit_ledger',
    key: { kind: 1, createdAt: 1 },
    options: { name: 'kind_createdAt' },
    why: "the daily usage reconciliation sums a day's settles",
  },
  {
    collection: 'usage_events',
    key: { callId: 1 },
    options: { name: 'callId_unique', unique: true },
    why: 'one usage row per AI call, however often its settle is retried',
  },
  {
    collection: 'usage_events',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: "account deletion moves a rider's rows to the untraceable id",
  },
  {
    collection: 'usage_events',
    key: { at: 1 },
    options: { name: 'at' },
    why: "the daily usage reconciliation sums a day's rows",
  },
  {
    collection: 'usage_reconciliations',
    key: { day: 1 },
    options: { name: 'day_unique', unique: true },
    why: 'one reconciliation entry per UTC day',
  },
];
