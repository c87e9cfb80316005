import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { NOTIFICATIONS_COLLECTIONS } from './collections';

/** What notifications store, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const NOTIFICATIONS_STORED_SHAPES: StoredShapes<typeof NOTIFICATIONS_COLLECTIONS> = {
  pushTokens: { ...STAMPED, userId: 'id', token: 'text', lastSeenAt: 'date', deadAt: 'date' },
  notificationDeliveryLog: {
    ...STAMPED,
    userId: 'id',
    sentAt: 'date',
    receiptCheckedAt: 'date',
    serviceStatus: 'number',
    attempt: 'number',
    attempts: 'number',
  },
};
