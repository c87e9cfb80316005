import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { ReadAhead } from '../../platform/middleware/read-ahead';
import { PresenceReads } from '../../platform/realtime/directory';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { BLOCK_REFUSALS } from '../blocks/refusals';
import { conversationForSending } from '../conversations/for-sending';
import { ownConversation } from '../conversations/own';
import { readDirectMessage } from '../stored-messaging';
import { pushAfterWrite } from './pushes';
import { ConversationParam, Message, MessageBody, MessagePage, MessageQuery, SenderSocket } from './schema';
import { forSendingArgs, sendMessage } from './send';
import { listMessages } from './service';
import { messageView } from './views';

const TAGS = ['direct messages'];
const noConversation = errorResponse('No such conversation among yours');

const list = defineRoute({
  method: 'get',
  path: '/{id}/messages',
  tags: TAGS,
  summary: "A conversation's messages: newest first, or with `after` the newer ones oldest first (participants only)",
  middleware: [auth()] as const,
  request: { params: ConversationParam, query: MessageQuery },
  responses: { 200: jsonResponse(MessagePage, 'A page of messages'), 404: noConversation },
});

/** The conversation with its blocks, read in the access check's call to the database: the path's id as it came. */
const conversationAhead = new ReadAhead(
  (params, claims) => (IDS.test(params.id ?? '') ? { conversationId: params.id!, userId: claims._id } : undefined),
  conversationForSending,
  (a, b) => a.conversationId === b.conversationId && a.userId === b.userId,
);
const IDS = /^[0-9a-f]{24}$/;

const send = defineRoute({
  method: 'post',
  path: '/{id}/messages',
  tags: TAGS,
  summary: 'Send a message to a conversation (participants only)',
  middleware: [auth({ ahead: conversationAhead })] as const,
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
    const conversation = await ownConversation(c, c.req.valid('param').id);
    const { limit, cursor, after } = c.req.valid('query');
    if (cursor && after) {
      throw new ApiError(400, 'Use either cursor or after, not both.', {
        details: [{ field: 'after', message: 'cannot be combined with cursor' }],
      });
    }
    const rows = await listMessages(c.var.db, conversation._id, {
      limit,
      cursor,
      after: after ? new ObjectId(after) : undefined,
    });
    // The cursor moves on the messages as fetched, also past one left out as unreadable.
    const page = toPage(rows, limit, (row) => row);
    const messages = readEach('dm_messages', page.items, readDirectMessage);
    const senders = await publicUsers(
      c.var.db,
      messages.flatMap((message) => message.userId ?? []),
    );
    const items = messages.map((message) =>
      messageView(message, conversation._id, message.userId && senders.get(message.userId.toHexString())),
    );
    return c.json({ items, nextCursor: after ? null : page.nextCursor }, 200);
  })
  .openapi(send, async (c) => {
    const senderId = new ObjectId(c.var.user._id);
    const conversationId = new ObjectId(c.req.valid('param').id);
    const ahead = conversationAhead.take(c.req.raw, forSendingArgs(conversationId, senderId));
    const sent = await sendMessage(c.var.db, conversationId, senderId, c.req.valid('json').text, ahead);
    if (sent === 'not-found') throw new ApiError(404, 'Conversation not found.');
    if (sent === 'messaging-blocked') throw refusal(BLOCK_REFUSALS, 'messaging-blocked');
    const { conversation, message } = sent;
    // The sender is the caller, whose account the access check read.
    const view = messageView(message, conversation._id, c.var.account);
    const event = { conversationId: view.conversationId, message: view };
    // The delivery and the push decision read each participant's directory entry once between them.
    const presence = new PresenceReads(c.env);
    const sid = c.req.valid('header')['x-socket-id'];
    publishAfterWrite(c, { namespace: '/messages', name: 'message:created', payload: event }, () => ({
      // Every participant's connections, the sender's other devices included, but not the one that sent it.
      riders: conversation.participantIds.map((id) => id.toHexString()),
      except: sid ? { sid, userId: senderId.toHexString() } : undefined,
      presence,
    }));
    pushAfterWrite(c, { conversation, message, senderName: view.sender?.name ?? '' }, presence);
    return c.json(view, 201);
  });
