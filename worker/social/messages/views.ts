import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { DirectMessageDoc } from '../documents';

type Sender = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

export function messageView(message: DirectMessageDoc, sender: Sender | undefined) {
  return {
    _id: message._id.toHexString(),
    conversationId: message.conversationId.toHexString(),
    sender: sender ? publicUserView(sender) : null,
    text: message.text,
    createdAt: message.createdAt.toISOString(),
  };
}
