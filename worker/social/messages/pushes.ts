import type { ObjectId } from 'mongodb';
import type { PushTokenDoc } from '../../notifications/documents';
import { type DeliveryOutcome, reachOf, sendReached } from '../../notifications/push/deliver';
import type { Dispatch } from '../../notifications/push/dispatch';
import { liveTokensOf } from '../../notifications/push-tokens/service';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import type { DatabaseVariables } from '../../platform/middleware/database';
import { describeError, logEvent } from '../../platform/ops/log-line';
import { PresenceReads, ridersViewing } from '../../platform/realtime/directory';
import { blockersAmong } from '../blocks/service';
import { unreadConversationCounts } from '../conversations/service';
import type { ConversationDoc, DirectMessageDoc } from '../documents';
import { messageNotification } from './push-payload';

type WriteContext = { env: Env; var: Pick<DatabaseVariables, 'db' | 'inBackground'> };

/**
 * A stored message, its conversation and the sender's name as a push shows it; the other participants' live tokens
 * when the send read them beside its writes (worker/social/messages/send.ts), so they are not read again.
 */
export interface NewMessage {
  conversation: Pick<ConversationDoc, '_id' | 'participantIds'>;
  message: Pick<DirectMessageDoc, '_id' | 'userId' | 'text'>;
  senderName: string;
  recipientTokens?: PushTokenDoc[];
}

/**
 * Pushes a new message to every other participant but those who blocked the sender and those with
 * the conversation on screen. Each step reads only for the riders the steps before left: who has it on screen
 * (the directory, no database), who has a live token, whom a push can reach (worker/notifications/push/deliver.ts:
 * messages push on, a sendable token), then blocks and badges: a rider watching the chat costs no read, one without
 * a device the token read alone. Answers the recipients pushed to and their outcomes, in the same order.
 */
export async function pushNewMessage(
  store: Store,
  env: Env,
  { conversation, message, senderName, recipientTokens }: NewMessage,
  presence = new PresenceReads(env),
): Promise<{ recipients: ObjectId[]; outcomes: DeliveryOutcome[] }> {
  const senderId = message.userId;
  const conversationId = conversation._id.toHexString();
  const others = conversation.participantIds.filter((id) => !senderId || !id.equals(senderId));
  const viewers = await viewersOf(presence, others, conversationId);
  const away = others.filter((id) => !viewers.has(id.toHexString()));
  const known = recipientTokens?.filter((token) => away.some((id) => id.equals(token.userId)));
  const tokens = away.length ? (known ?? (await liveTokensOf(store, away))) : [];
  const withDevice = away.filter((id) => tokens.some((token) => token.userId.equals(id)));
  const reach = await reachOf(
    store,
    env,
    withDevice.map((userId) => ({ userId, category: 'messages' as const })),
    new Date(),
    tokens,
  );
  const reachable = withDevice.flatMap((userId, i) => {
    const one = reach[i]!;
    return one.status === 'reachable' ? [{ userId, tokens: one.tokens }] : [];
  });
  if (!reachable.length) return { recipients: [], outcomes: [] };
  const ids = reachable.map((one) => one.userId);
  const [blockers, unread] = await Promise.all([
    senderId ? blockersAmong(store, senderId, ids) : new Set<string>(),
    unreadConversationCounts(store, ids),
  ]);
  const due = reachable.filter(({ userId }) => !blockers.has(userId.toHexString()));
  const dispatches: Dispatch[] = due.map(({ userId, tokens }) => ({
    userId,
    category: 'messages',
    tokens,
    notification: messageNotification({
      conversationId,
      messageId: message._id.toHexString(),
      senderName,
      text: message.text,
      unreadConversations: unread.get(userId.toHexString()) ?? 0,
    }),
  }));
  return { recipients: due.map(({ userId }) => userId), outcomes: await sendReached(store, env, dispatches) };
}

/** Who has the conversation on screen; when the directory cannot say, nobody (a banner too many beats a missed message). */
async function viewersOf(presence: PresenceReads, riders: ObjectId[], conversationId: string): Promise<Set<string>> {
  try {
    return await ridersViewing(
      presence,
      riders.map((id) => id.toHexString()),
      conversationId,
    );
  } catch (error) {
    logEvent('push.viewers.unknown', { conversationId, error: describeError(error) });
    return new Set();
  }
}

/**
 * Sends the pushes of a stored message in the background, as worker/platform/realtime/publish.ts publishes
 * its event: the sender does not wait, and a failure is logged, never the write's failure. `presence` is the
 * directory reads the message's publish shares.
 */
export function pushAfterWrite(c: WriteContext, newMessage: NewMessage, presence: PresenceReads) {
  c.var.inBackground(async () => {
    try {
      await pushNewMessage(c.var.db, c.env, newMessage, presence);
    } catch (error) {
      logEvent('push.message.failed', {
        messageId: newMessage.message._id.toHexString(),
        conversationId: newMessage.conversation._id.toHexString(),
        error: describeError(error),
      });
    }
  });
}
