import { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Conversation } from '../stored-messaging';
import { findConversationWithBlock } from './service';

/** A conversation as sending a message into it needs it: its id and participants. */
export type SendingConversation = Pick<Conversation, '_id' | 'participantIds'>;

/** The conversation with whether a block stands between the sender and another participant; null: not theirs. */
export type FoundForSending = { conversation: SendingConversation; blocked: boolean } | null;

/** The arguments of that read: the conversation and the sender, as hex ids. */
export type ForSendingArgs = { conversationId: string; userId: string };

/** That read as it crosses back from the gateway object: the ids as hex, the block as a flag. */
export type ForSendingWire = { id: string; participantIds: string[]; blocked: boolean } | null;

/**
 * findConversationWithBlock where the connection is (inside the send's one gateway job, sendToConversation),
 * answering only the id, the participants and the block as text and a flag: nothing encoded, copied or revived.
 */
export async function findForSending(
  store: Store,
  { conversationId, userId }: ForSendingArgs,
): Promise<ForSendingWire> {
  const found = await findConversationWithBlock(store, new ObjectId(conversationId), new ObjectId(userId));
  if (!found) return null;
  const { _id, participantIds } = found.conversation;
  return {
    id: _id.toHexString(),
    participantIds: participantIds.map((id) => id.toHexString()),
    blocked: found.blocked,
  };
}

/** findForSending's answer read where it arrives. */
export const readForSending = (wire: ForSendingWire): FoundForSending =>
  wire && {
    conversation: {
      _id: ObjectId.createFromHexString(wire.id),
      participantIds: wire.participantIds.map((id) => ObjectId.createFromHexString(id)),
    },
    blocked: wire.blocked,
  };
