import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { ConversationDoc, DirectMessageDoc } from '../documents';
import { messageView } from '../messages/views';

type Rider = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

export function conversationView(
  conversation: ConversationDoc,
  riders: Map<string, Rider>,
  lastMessage: DirectMessageDoc | undefined,
  unreadCount: number,
) {
  const rider = (id: { toHexString(): string }) => riders.get(id.toHexString());
  return {
    _id: conversation._id.toHexString(),
    participants: conversation.participantIds.flatMap((id) => {
      const found = rider(id);
      return found ? [publicUserView(found)] : [];
    }),
    lastMessage: lastMessage ? messageView(lastMessage, lastMessage.userId && rider(lastMessage.userId)) : null,
    unreadCount,
    lastActivityAt: conversation.lastActivityAt.toISOString(),
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
  };
}
