import { ObjectId } from 'mongodb';
import { gatewayQuery } from '../../platform/db/gateway-queries';
import type { Conversation } from '../stored-messaging';
import { findConversationWithBlock } from './service';

/** A conversation as sending a message into it needs it: its id and participants. */
export type SendingConversation = Pick<Conversation, '_id' | 'participantIds'>;

/** The conversation with whether a block stands between the sender and another participant; null: not theirs. */
export type FoundForSending = { conversation: SendingConversation; blocked: boolean } | null;

/** The arguments of that read: the conversation and the sender, as hex ids. */
export type ForSendingArgs = { conversationId: string; userId: string };

/**
 * findConversationWithBlock as a gateway query's part (run inside sendToConversation, where the connection is),
 * answering only the id, the participants and the block as text and a flag: nothing encoded, copied or revived.
 */
export const conversationForSending = gatewayQuery(
  'conversation-for-sending',
  true,
  async (store, { conversationId, userId }: ForSendingArgs) => {
    const found = await findConversationWithBlock(store, new ObjectId(conversationId), new ObjectId(userId));
    if (!found) return null;
    const { _id, participantIds } = found.conversation;
    return {
      id: _id.toHexString(),
      participantIds: participantIds.map((id) => id.toHexString()),
      blocked: found.blocked,
    };
  },
  (wire): FoundForSending =>
    wire && {
      conversation: {
        _id: ObjectId.createFromHexString(wire.id),
        participantIds: wire.participantIds.map((id) => ObjectId.createFromHexString(id)),
      },
      blocked: wire.blocked,
    },
);
