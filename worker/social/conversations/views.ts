import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import { messageView } from '../messages/views';
import type { Conversation, DirectMessage } from '../stored-messaging';

type Rider = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

export function conversationView(
  conversation: Conversation,
  riders: Map<string, Rider>,
  lastMessage: DirectMessage | undefined,
  unreadCount: number,
) {
  const rider = (id: { toHexString(): string }) => riders.get(id.toHexString());
  return {
    _id: conversation._id.toHexString(),
    participants: conversation.participantIds.flatMap((id) => {
      const found = rider(id);
      return found ? [publicUserView(found)] : [];
    }),
    lastMessage: lastMessage
      ? messageView(lastMessage, conversation._id, lastMessage.userId && rider(lastMessage.userId))
      : null,
    unreadCount,
    lastActivityAt: conversation.lastActivityAt.toISOString(),
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
  };
}
