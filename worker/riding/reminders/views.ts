import type { ScheduledNotificationDoc } from '../documents';
import { reminderNotification } from './notification';
import type { LocalReminder } from './service';

/** A stored scheduled notification as its rider sees it (no lease fields). */
export function scheduledNotificationView(row: ScheduledNotificationDoc) {
  return {
    _id: row._id.toHexString(),
    listId: row.listId.toHexString(),
    trickId: row.trickId ? row.trickId.toHexString() : null,
    category: row.category,
    scheduledFor: row.scheduledFor.toISOString(),
    status: row.status,
    idempotencyKey: row.idempotencyKey,
    attemptCount: row.attemptCount,
    lastAttemptAt: row.lastAttemptAt ? row.lastAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A pending reminder with the notification the device schedules: the same one the server would send now. */
export function localReminderView({ row, listName, trick }: LocalReminder) {
  const { title, body, threadId, data } = reminderNotification(row, listName, trick);
  return {
    ...scheduledNotificationView(row),
    notification: {
      title,
      body,
      threadId,
      channelId: 'reminders' as const,
      data: {
        url: String(data.url),
        category: 'reminders' as const,
        idempotencyKey: row.idempotencyKey,
        listId: String(data.listId),
        trickId: String(data.trickId),
      },
    },
  };
}
