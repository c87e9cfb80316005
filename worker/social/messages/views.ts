import type { ObjectId } from 'mongodb';
import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { DirectMessage } from '../stored-messaging';

type Sender = Pick<UserDoc, '_id' | 'name' | 'imageUri'>;

/**
 * A message of `conversationId`, the conversation it was listed or sent in; `folded` when its reader should see it
 * folded (worker/social/messages/filtered.ts).
 */
export function messageView(
  message: DirectMessage,
  conversationId: ObjectId,
  sender: Sender | undefined,
  folded = false,
) {
  return {
    _id: message._id.toHexString(),
    conversationId: conversationId.toHexString(),
    sender: sender ? publicUserView(sender) : null,
    text: message.text,
    ...(folded ? { filtered: true as const } : {}),
    createdAt: message.createdAt.toISOString(),
  };
}
