import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { findConversationWithBlock, recordSentMessage } from '../conversations/service';
import type { ConversationDoc, DirectMessageDoc } from '../documents';
import { insertMessage } from './service';

/** A message refused: no such conversation among the sender's, or a block between the sender and another participant. */
export type SendRefused = 'not-found' | 'messaging-blocked';

/**
 * Stores a message from a participant in three round trips, one after another: the conversation (membership) with
 * any block either way, the message, then one write of the conversation's latest message and the sender's read marker.
 * The message is stored before the conversation names it, so a reader never finds a latest message that is not there.
 */
export async function sendMessage(
  store: Store,
  conversationId: ObjectId,
  senderId: ObjectId,
  text: string,
): Promise<SendRefused | { conversation: ConversationDoc; message: DirectMessageDoc }> {
  const found = await findConversationWithBlock(store, conversationId, senderId);
  if (!found) return 'not-found';
  if (found.blocked) return 'messaging-blocked';
  const { conversation } = found;
  const message = await insertMessage(store, conversation._id, senderId, text);
  await recordSentMessage(store, conversation._id, { ...message, userId: senderId });
  return { conversation, message };
}
