import { holds } from '../platform/db/collections';
import type { NotificationDeliveryLogDoc, PushTokenDoc } from './documents';

/** Notifications: push tokens and the delivery log. Each collection's name and the type of its documents. */
export const NOTIFICATIONS_COLLECTIONS = {
  pushTokens: holds<PushTokenDoc>(),
  notificationDeliveryLog: holds<NotificationDeliveryLogDoc>(),
};

type NotificationsCollections = typeof NOTIFICATIONS_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends NotificationsCollections {}
}
