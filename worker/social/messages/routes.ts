import { ObjectId } from 'mongodb';
import { readUser } from '../../accounts/users/read-user';
import { publicUsers } from '../../accounts/users/service';
import { isObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { validatedAhead } from '../../platform/http/validated-ahead';
import { auth } from '../../platform/middleware/auth';
import { WriteAhead } from '../../platform/middleware/write-ahead';
import { PresenceReads } from '../../platform/realtime/directory';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { BLOCK_REFUSALS } from '../blocks/refusals';
import { ownConversationAhead, ownConversationIdOf } from '../conversations/own';
import { readDirectMessage } from '../stored-messaging';
import { foldedFor, followersAmong } from './filtered';
import { pushAfterWrite } from './pushes';
import { ConversationParam, Message, MessageBody, MessagePage, MessageQuery, SenderSocket } from './schema';
import { sendArgs, sendMessage, sendToConversation } from './send';
import { listMessages } from './service';
import { messageView } from './views';

const TAGS = ['direct messages'];
const FOLDED_PUSH_TEXT = 'Sent you a message.';
const noConversation = errorResponse('No such conversation among yours');

const list = defineRoute({
  method: 'get',
  path: '/{id}/messages',
  tags: TAGS,
  summary: "A conversation's messages: newest first, or with `after` the newer ones oldest first (participants only)",
  middleware: [auth({ ahead: ownConversationAhead })] as const,
  request: { params: ConversationParam, query: MessageQuery },
  responses: { 200: jsonResponse(MessagePage, 'A page of messages'), 404: noConversation },
});

/**
 * The whole send in the access check's call to the database (worker/platform/middleware/write-ahead.ts): sent only for
 * a request this route's validation accepts, and run only when the caller's account admits them.
 */
export const sendAhead = new WriteAhead(
  'send-as-caller',
  async (c, claims) => {
    const valid = await validatedAhead(c.req, { param: ConversationParam, header: SenderSocket, json: MessageBody });
    if (!valid) return undefined;
    const { text } = valid.json;
    const filtered = await isObjectionable(c.var.db, text);
    return sendArgs(new ObjectId(valid.param.id), new ObjectId(claims._id), text, filtered);
  },
  sendToConversation,
  readUser,
);

const send = defineRoute({
  method: 'post',
  path: '/{id}/messages',
  tags: TAGS,
  summary: 'Send a message to a conversation (participants only)',
  middleware: [auth({ ahead: sendAhead })] as const,
  request: { params: ConversationParam, headers: SenderSocket, ...jsonBody(MessageBody) },
  responses: {
    201: jsonResponse(Message, 'Sent'),
    403: errorResponse('The sender and another participant blocked one another'),
    404: noConversation,
  },
});

/** Messages of a conversation, mounted under /api/conversations. */
export const messageRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const conversationId = await ownConversationIdOf(c, c.req.valid('param').id);
    const { limit, cursor, after } = c.req.valid('query');
    if (cursor && after) {
      throw new ApiError(400, 'Use either cursor or after, not both.', {
        details: [{ field: 'after', message: 'cannot be combined with cursor' }],
      });
    }
    const rows = await listMessages(c.var.db, conversationId, {
      limit,
      cursor,
      after: after ? new ObjectId(after) : undefined,
    });
    // The cursor moves on the messages as fetched, also past one left out as unreadable.
    const page = toPage(rows, limit, (row) => row);
    const messages = readEach('dm_messages', page.items, readDirectMessage);
    const [senders, folded] = await Promise.all([
      publicUsers(
        c.var.db,
        messages.flatMap((message) => message.userId ?? []),
      ),
      foldedFor(c.var.db, new ObjectId(c.var.user._id), messages),
    ]);
    const items = messages.map((message) =>
      messageView(
        message,
        conversationId,
        message.userId && senders.get(message.userId.toHexString()),
        folded.has(message._id.toHexString()),
      ),
    );
    return c.json({ items, nextCursor: after ? null : page.nextCursor }, 200);
  })
  .openapi(send, async (c) => {
    // Read once: each read of c.var copies every variable of the request into a new object.
    const { db, user, account } = c.var;
    const senderId = new ObjectId(user._id);
    const { text } = c.req.valid('json');
    const conversationId = new ObjectId(c.req.valid('param').id);
    const ahead = sendAhead.take(
      c.req.raw,
      (args) =>
        args.conversationId === conversationId.toHexString() && args.userId === user._id && args.message.text === text,
    );
    // Never refused for its words (it is private): a matched message is stored marked, and folded for non-followers.
    const args = ahead?.args ?? sendArgs(conversationId, senderId, text, await isObjectionable(db, text));
    const sent = await sendMessage(db, args, ahead?.outcome);
    if (sent === 'not-found') throw new ApiError(404, 'Conversation not found.');
    if (sent === 'messaging-blocked') throw refusal(BLOCK_REFUSALS, 'messaging-blocked');
    const { conversation, message, recipientTokens } = sent;
    // The sender is the caller, whose account the access check read.
    const view = messageView(message, conversation._id, account);
    const event = { conversationId: view.conversationId, message: view };
    // The delivery and the push decision read each participant's directory entry once between them.
    const presence = new PresenceReads(c.env);
    const sid = c.req.valid('header')['x-socket-id'];
    // Every participant's connections, the sender's other devices included, but not the one that sent it.
    const riders = conversation.participantIds.map((id) => id.toHexString());
    const except = sid ? { sid, userId: senderId.toHexString() } : undefined;
    if (!message.filtered) {
      publishAfterWrite(c, { namespace: '/messages', name: 'message:created', payload: event }, () => ({
        riders,
        except,
        presence,
      }));
    } else {
      // Read in the background, and only for a matched message: who of the others follows the sender sees it unfolded.
      const sender = senderId.toHexString();
      const followers = followersAmong(
        db,
        senderId,
        conversation.participantIds.filter((id) => !id.equals(senderId)),
      );
      followers.catch(() => undefined);
      const unfolded = async () => {
        const following = await followers;
        return (id: string) => id === sender || following.has(id);
      };
      publishAfterWrite(c, { namespace: '/messages', name: 'message:created', payload: event }, async () => {
        const isUnfolded = await unfolded();
        return { riders: riders.filter(isUnfolded), except, presence };
      });
      const folded = { ...event, message: { ...view, filtered: true as const } };
      publishAfterWrite(c, { namespace: '/messages', name: 'message:created', payload: folded }, async () => {
        const isUnfolded = await unfolded();
        return { riders: riders.filter((id) => !isUnfolded(id)), presence };
      });
    }
    // A matched message's words stay out of lock screens: the push says only that a message came.
    const pushed = message.filtered ? { ...message, text: FOLDED_PUSH_TEXT } : message;
    pushAfterWrite(
      c,
      { conversation, message: pushed, senderName: view.sender?.name ?? '', recipientTokens },
      presence,
    );
    return c.json(view, 201);
  });
