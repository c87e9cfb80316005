import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { type Refusals, refusal } from '../../platform/http/refusals';
import { blockedBetween } from './service';

/** A block refused (no such rider, or the caller themselves), and a message refused between riders who blocked. */
export const BLOCK_REFUSALS: Refusals<'not-found' | 'self' | 'messaging-blocked'> = {
  'not-found': { status: 404, message: 'User not found.' },
  self: { status: 400, message: 'You cannot block yourself.', details: [{ field: 'userId', message: 'is you' }] },
  'messaging-blocked': { status: 403, message: 'You cannot message this rider.' },
};

/** Refuses a conversation or message between riders where either blocked the other (the moderation issue: 403). */
export async function refuseBlocked(store: Store, userId: ObjectId, participantIds: ObjectId[]): Promise<void> {
  const others = participantIds.filter((id) => !id.equals(userId));
  if (await blockedBetween(store, userId, others)) throw refusal(BLOCK_REFUSALS, 'messaging-blocked');
}
