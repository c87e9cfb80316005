import type { Cleanup } from '../platform/db/personal-data';
import { idForms } from '../platform/db/stored-values';

/**
 * What deleting an account does to the notifications collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const NOTIFICATIONS_PERSONAL_DATA: Cleanup[] = [
  // Older code stored some owners' ids as hex strings.
  { collection: 'pushTokens', remove: (userId) => ({ userId: { $in: idForms(userId) } }) },
  // The rider's push tickets and receipts (worker/notifications/push/dispatch.ts) name them and their devices.
  { collection: 'notificationDeliveryLog', remove: (userId) => ({ userId }) },
];
