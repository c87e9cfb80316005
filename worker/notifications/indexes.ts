import type { IndexDeclaration } from '../platform/db/indexes';
import { LIMITS } from '../platform/limits';

/** The indexes notifications relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const NOTIFICATIONS_INDEXES: IndexDeclaration[] = [
  {
    collection: 'pushTokens',
    key: { token: 1 },
    options: { name: 'token_unique', unique: true },
    why: 'upsert by token; a device address belongs to one account at a time',
  },
  {
    collection: 'pushTokens',
    key: { userId: 1, deadAt: 1 },
    options: { name: 'userId_deadAt' },
    why: "the sender reads users' live tokens; account deletion",
  },
  {
    collection: 'pushTokens',
    key: { deadAt: 1 },
    options: { name: 'deadAt_ttl', expireAfterSeconds: LIMITS.push.deadTokenRetentionSeconds },
    why: 'dead tokens are purged 30 days after deadAt (interface spec); live ones have deadAt null and stay',
  },
  {
    collection: 'notificationDeliveryLog',
    key: { receiptStatus: 1, sentAt: 1 },
    options: { name: 'receiptStatus_sentAt' },
    why: 'the receipts job reads pending tickets older than 30 minutes, oldest first',
  },
  {
    collection: 'notificationDeliveryLog',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: 'account deletion',
  },
];
