import { createHash } from 'node:crypto';
import type { ObjectId } from 'mongodb';

/** The interface spec's idempotency key of a scheduled notification: a hash of user, list, trick and scheduledFor. */
export function reminderKey(userId: ObjectId, listId: ObjectId, trickId: ObjectId | null, scheduledFor: Date): string {
  const parts = [userId.toHexString(), listId.toHexString(), trickId?.toHexString() ?? '-', scheduledFor.toISOString()];
  return createHash('sha256').update(parts.join('|')).digest('hex');
}
