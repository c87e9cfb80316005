import type { Notification } from '../../notifications/push/deliver';
import { fitBody, fitTitle } from '../../notifications/push/text';

/** Where tapping a message push leads: the app's chat screen, as an Expo Router path (docs/message-pushes.md). */
export const messageDeepLink = (conversationId: string) => `/messages/${conversationId}`;

/**
 * The push for one new message and one recipient, as the interface spec's "Push notifications"
 * part lays it out: grouped by conversation on iOS (`threadId`) and Android (`group`).
 */
export function messageNotification(message: {
  conversationId: string;
  messageId: string;
  senderName: string;
  text: string;
  /** The recipient's conversations with unread messages, this one included. */
  unreadConversations: number;
}): Notification {
  const { conversationId } = message;
  return {
    title: fitTitle(message.senderName),
    body: fitBody(message.text),
    threadId: conversationId,
    channelId: 'messages',
    group: conversationId,
    badge: message.unreadConversations,
    data: {
      url: messageDeepLink(conversationId),
      category: 'messages',
      conversationId,
      messageId: message.messageId,
    },
  };
}
