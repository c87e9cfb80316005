import type { ObjectId } from 'mongodb';
import { writeInOrder } from '../../platform/db/in-order';
import type { Store } from '../../platform/db/store';
import { findConversationWithBlock, recordSentMessage } from '../conversations/service';
import type { DirectMessageDoc } from '../documents';
import type { Conversation } from '../stored-messaging';
import { insertMessage, newMessage } from './service';

/** A message refused: no such conversation among the sender's, or a block between the sender and another participant. */
export type SendRefused = 'not-found' | 'messaging-blocked';

/**
 * Stores a message from a participant in three operations, one after another: the conversation (membership) with
 * any block either way, the message, then one write of the conversation's latest message and the sender's read marker;
 * the last two in one call to the gateway. The message is stored before the conversation names it, so a reader never
 * finds a latest message that is not there.
 */
export async function sendMessage(
  store: Store,
  conversationId: ObjectId,
  senderId: ObjectId,
  text: string,
  filtered = false,
): Promise<SendRefused | { conversation: Conversation; message: DirectMessageDoc }> {
  const found = await findConversationWithBlock(store, conversationId, senderId);
  if (!found) return 'not-found';
  if (found.blocked) return 'messaging-blocked';
  const { conversation } = found;
  const message = newMessage(conversation._id, senderId, text, filtered);
  await writeInOrder(store, [
    (s) => insertMessage(s, message),
    (s) => recordSentMessage(s, conversation._id, { ...message, userId: senderId }),
  ]);
  return { conversation, message };
}
