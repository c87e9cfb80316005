import { ObjectId } from 'mongodb';
import type { PushTokenDoc } from '../../notifications/documents';
import { liveTokenRows, readLiveTokens } from '../../notifications/push-tokens/service';
import { gatewayQuery, runQueries } from '../../platform/db/gateway-queries';
import type { Store } from '../../platform/db/store';
import {
  type FoundForSending,
  findForSending,
  readForSending,
  type SendingConversation,
} from '../conversations/for-sending';
import { recordSentMessage } from '../conversations/service';
import type { DirectMessageDoc } from '../documents';
import { insertMessage, type NewDirectMessage, newMessage } from './service';

/** A message refused: no such conversation among the sender's, or a block between the sender and another participant. */
export type SendRefused = 'not-found' | 'messaging-blocked';

/** A message to send as it crosses to the gateway object: its conversation and sender as hex ids, and the message. */
export type SendArgs = {
  conversationId: string;
  userId: string;
  message: { id: string; text: string; createdAt: Date; filtered: boolean };
};

/** The message a send stores, made from its arguments alike where the connection is and in the Worker. */
function sentMessage({ conversationId, userId, message }: SendArgs): NewDirectMessage {
  return newMessage(ObjectId.createFromHexString(conversationId), ObjectId.createFromHexString(userId), message.text, {
    _id: ObjectId.createFromHexString(message.id),
    createdAt: message.createdAt,
    filtered: message.filtered,
  });
}

/**
 * Stores the message, then records it in its conversation (latest message, the sender's read marker), one after
 * the other, so the conversation never names a message not stored.
 */
async function storeSentMessage(store: Store, message: NewDirectMessage): Promise<void> {
  await insertMessage(store, message);
  await recordSentMessage(store, message.conversationId, message);
}

/**
 * What a send found: the conversation (null: not the sender's) and any block, and whether it stored the message;
 * once stored, the other participants' live push tokens, read beside the writes for the push decision (undefined
 * when that read failed: the decision then reads them itself).
 */
export type SendOutcome = { found: FoundForSending; stored: boolean; recipientTokens?: PushTokenDoc[] };

/**
 * A whole send where the connection is: the conversation (membership) with any block either way, then, when the
 * sender may write, the message and its conversation's write (storeSentMessage) and, beside them, the other
 * participants' live push tokens (liveTokenRows), which the push decision after the answer would read in a call of
 * its own. One gateway call, alone or in the access check's own call (the send route's write-ahead).
 */
export const sendToConversation = gatewayQuery(
  'send-to-conversation',
  false,
  async (store, args: SendArgs) => {
    const { conversationId, userId } = args;
    const found = await findForSending(store, { conversationId, userId });
    if (!found || found.blocked) return { found, stored: false, tokens: null };
    const others = found.participantIds.filter((id) => id !== userId);
    // A failed token read never fails the send: the message is stored whatever it answers.
    const [, tokens] = await Promise.all([
      storeSentMessage(store, sentMessage(args)),
      liveTokenRows.run(store, others).catch(() => null),
    ]);
    return { found, stored: true, tokens };
  },
  ({ found, stored, tokens }): SendOutcome => ({
    found: readForSending(found),
    stored,
    ...(tokens ? { recipientTokens: readLiveTokens(liveTokenRows.read(tokens)) } : {}),
  }),
);

/** The arguments of a send of `text` by the sender, with the message's id and time made here. */
export function sendArgs(conversationId: ObjectId, senderId: ObjectId, text: string, filtered: boolean): SendArgs {
  return {
    conversationId: conversationId.toHexString(),
    userId: senderId.toHexString(),
    message: { id: new ObjectId().toHexString(), text, createdAt: new Date(), filtered },
  };
}

/**
 * Stores a message from a participant (sendToConversation, one gateway call), or takes the outcome of the same send
 * already made in the access check's call (`sent`). The message is stored before the conversation names it, so a
 * reader never finds a latest message that is not there.
 */
export async function sendMessage(
  store: Store,
  args: SendArgs,
  sent?: SendOutcome,
): Promise<
  SendRefused | { conversation: SendingConversation; message: DirectMessageDoc; recipientTokens?: PushTokenDoc[] }
> {
  const { found, recipientTokens } = sent ?? (await runQueries(store, [sendToConversation.with(args)]))[0];
  if (!found) return 'not-found';
  if (found.blocked) return 'messaging-blocked';
  return {
    conversation: found.conversation,
    message: sentMessage(args),
    ...(recipientTokens ? { recipientTokens } : {}),
  };
}
