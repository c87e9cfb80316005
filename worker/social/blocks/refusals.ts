import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { ApiError } from '../../platform/http/errors';
import { blockedBetween } from './service';

/** Refuses a conversation or message between riders where either blocked the other (the moderation issue: 403). */
export async function refuseBlocked(store: Store, userId: ObjectId, participantIds: ObjectId[]): Promise<void> {
  const others = participantIds.filter((id) => !id.equals(userId));
  if (await blockedBetween(store, userId, others)) throw new ApiError(403, 'You cannot message this rider.');
}
