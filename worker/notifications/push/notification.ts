import type { PushCategory } from '../documents';

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
