import type { PushCategory } from '../documents';
import { fitBody, fitTitle } from './text';

/** What the device shows and the app receives (docs/push.md, "What the app receives"). */
export interface Notification {
  /** Already within 30 characters (worker/notifications/push/text.ts fitTitle). */
  title: string;
  /** Already one line within 80 characters (fitBody). */
  body: string;
  /** iOS grouping. */
  threadId: string;
  /** Android channel. */
  channelId?: PushCategory;
  /** Android group. */
  group?: string;
  badge?: number;
  data: { url: string; category: PushCategory } & Record<string, string | number | boolean>;
}

/**
 * The notification with its title and body as text within their limits, whatever its caller built them from (a
 * title stored as a number reads as its digits): a push service refuses a whole chunk over one message that is not.
 */
export const readableNotification = (notification: Notification): Notification => ({
  ...notification,
  title: fitTitle(notification.title),
  body: fitBody(notification.body),
});
