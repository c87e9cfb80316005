import { ObjectId } from 'mongodb';
import { gatewayQuery, runQueries } from '../../platform/db/gateway-queries';
import type { Store } from '../../platform/db/store';
import { conversationForSending, type FoundForSending, type SendingConversation } from '../conversations/for-sending';
import { recordSentMessage } from '../conversations/service';
import type { DirectMessageDoc } from '../documents';
import { insertMessage, newMessage } from './service';

/** A message refused: no such conversation among the sender's, or a block between the sender and another participant. */
export type SendRefused = 'not-found' | 'messaging-blocked';

/** A message as it crosses to the gateway object: its ids as hex, its date as it is. */
type MessageArgs = {
  id: string;
  conversationId: string;
  userId: string;
  text: string;
  createdAt: Date;
  filtered?: boolean;
};

/**
 * Stores the message, then records it in its conversation (latest message, the sender's read marker), one after
 * the other where the connection is: one gateway call, and the conversation never names a message not stored.
 * A write: sent again on another object only if the first refused it unrun.
 */
export const storeSentMessage = gatewayQuery(
  'store-sent-message',
  false,
  async (store, { id, conversationId, userId, text, createdAt, filtered }: MessageArgs) => {
    const sender = ObjectId.createFromHexString(userId);
    const message = newMessage(ObjectId.createFromHexString(conversationId), sender, text, {
      _id: ObjectId.createFromHexString(id),
      createdAt,
      filtered,
    });
    await insertMessage(store, message);
    await recordSentMessage(store, message.conversationId, { ...message, userId: sender });
    return null;
  },
  () => undefined,
);

/**
 * Stores a message from a participant in three operations, one after another: the conversation (membership) with
 * any block either way, the message, then one write of the conversation's latest message and the sender's read marker;
 * the last two in one call to the gateway (storeSentMessage). The message is stored before the conversation names it, so a reader never
 * finds a latest message that is not there. `ahead` is the first read's answer when the access check already sent it
 * (worker/platform/middleware/read-ahead.ts).
 */
export async function sendMessage(
  store: Store,
  conversationId: ObjectId,
  senderId: ObjectId,
  text: string,
  options: { filtered?: boolean; ahead?: { answer: FoundForSending } } = {},
): Promise<SendRefused | { conversation: SendingConversation; message: DirectMessageDoc }> {
  const { filtered = false, ahead } = options;
  const found = ahead
    ? ahead.answer
    : (await runQueries(store, [conversationForSending.with(forSendingArgs(conversationId, senderId))]))[0];
  if (!found) return 'not-found';
  if (found.blocked) return 'messaging-blocked';
  const { conversation } = found;
  const message = newMessage(conversation._id, senderId, text, { filtered });
  await runQueries(store, [
    storeSentMessage.with({
      id: message._id.toHexString(),
      conversationId: conversation._id.toHexString(),
      userId: senderId.toHexString(),
      text,
      createdAt: message.createdAt,
      filtered,
    }),
  ]);
  return { conversation, message };
}

/** The arguments of the conversation's read for a sender, as the access check may send it ahead. */
export const forSendingArgs = (conversationId: ObjectId, senderId: ObjectId) => ({
  conversationId: conversationId.toHexString(),
  userId: senderId.toHexString(),
});
