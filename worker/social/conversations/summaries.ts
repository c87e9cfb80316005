import type { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { Store } from '../../platform/db/store';
import { messagesById } from '../messages/service';
import type { Conversation } from '../stored-messaging';
import { conversationView } from './views';

/**
 * The conversations as the caller sees them: participants and the last message's sender as
 * public users (one query for all), the last messages (one query) and the caller's unread
 * counts, computed by the caller from worker/social/messages/service.ts `unreadCounts`.
 */
export async function conversationViews(store: Store, conversations: Conversation[], unread: Map<string, number>) {
  const lastMessages = await messagesById(
    store,
    conversations.flatMap((conversation) => (conversation.lastMessageId ? [conversation.lastMessageId] : [])),
  );
  const riderIds: ObjectId[] = conversations.flatMap((conversation) => conversation.participantIds);
  for (const message of lastMessages.values()) if (message.userId) riderIds.push(message.userId);
  const riders = await publicUsers(store, riderIds);
  return conversations.map((conversation) =>
    conversationView(
      conversation,
      riders,
      conversation.lastMessageId ? lastMessages.get(conversation.lastMessageId.toHexString()) : undefined,
      unread.get(conversation._id.toHexString()) ?? 0,
    ),
  );
}
