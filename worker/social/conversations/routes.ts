import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { ApiError } from '../../platform/http/errors';
import { toKeysetPage } from '../../platform/http/keyset-cursor';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { refuseBlocked } from '../blocks/refusals';
import { blockedEitherWayAmong } from '../blocks/service';
import { ConversationParam } from '../messages/schema';
import { messageInConversation, unreadCounts } from '../messages/service';
import { readConversation } from '../stored-messaging';
import { ownConversation } from './own';
import { Conversation, ConversationPage, ConversationQuery, NewConversation, ReadBody, ReadState } from './schema';
import {
  activityKeyOf,
  listConversations,
  markerOf,
  moveReadMarker,
  openConversation,
  unreadScope,
  unreadScopes,
} from './service';
import { conversationViews } from './summaries';

const TAGS = ['direct messages'];
const { participantsMin, participantsMax } = LIMITS.conversation;

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Open the conversation of these riders and the caller: the existing one for the same set, else a new one',
  middleware: [auth()] as const,
  request: jsonBody(NewConversation),
  responses: {
    201: jsonResponse(Conversation, 'A new conversation'),
    200: jsonResponse(Conversation, 'The existing conversation of exactly these participants'),
    403: errorResponse('The caller and another participant blocked one another'),
  },
});

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: "The caller's conversations, most recent activity first, with unread counts and their total",
  middleware: [auth()] as const,
  request: { query: ConversationQuery },
  responses: { 200: jsonResponse(ConversationPage, 'A page of conversations') },
});

const read = defineRoute({
  method: 'post',
  path: '/{id}/read',
  tags: TAGS,
  summary: "Move the caller's read marker forward, to a message or to the latest (never back)",
  middleware: [auth()] as const,
  request: { params: ConversationParam, ...jsonBody(ReadBody) },
  responses: {
    200: jsonResponse(ReadState, "The caller's read marker as stored"),
    404: errorResponse('No such conversation among yours, or no such message in it'),
  },
});

const refuseParticipants = (message: string) =>
  new ApiError(400, `participantIds ${message}.`, { details: [{ field: 'participantIds', message }] });

/** The caller and the named riders, each once; every one an existing account. */
async function participantsOf(c: { var: AppEnv['Variables'] }, named: string[]): Promise<ObjectId[]> {
  const hexes = [...new Set([c.var.user._id, ...named].map((id) => id.toLowerCase()))];
  if (hexes.length < participantsMin) throw refuseParticipants('must name at least one other rider');
  if (hexes.length > participantsMax) throw refuseParticipants(`may hold ${participantsMax} participants at most`);
  const ids = hexes.map((hex) => new ObjectId(hex));
  const found = await publicUsers(c.var.db, ids);
  const missing = hexes.filter((hex) => !found.has(hex));
  if (missing.length) throw refuseParticipants(`name no account: ${missing.join(', ')}`);
  return ids;
}

/** Direct-message conversations, mounted under /api/conversations. */
export const conversationRoutes = createRouter<AppEnv>()
  .openapi(create, async (c) => {
    const callerId = new ObjectId(c.var.user._id);
    const ids = await participantsOf(c, c.req.valid('json').participantIds);
    await refuseBlocked(c.var.db, callerId, ids);
    const { conversation, created } = await openConversation(c.var.db, ids);
    const scope = unreadScope(conversation, callerId);
    const unread = await unreadCounts(c.var.db, callerId, scope ? [scope] : []);
    const [view] = await conversationViews(c.var.db, [conversation], unread);
    return c.json(view!, created ? 201 : 200);
  })
  .openapi(list, async (c) => {
    const callerId = new ObjectId(c.var.user._id);
    const { limit, cursor } = c.req.valid('query');
    const [rows, scopes] = await Promise.all([
      listConversations(c.var.db, callerId, { limit, cursor }),
      unreadScopes(c.var.db, callerId),
    ]);
    // One count over every conversation with news gives the page's counts and the total.
    const unread = await unreadCounts(c.var.db, callerId, scopes);
    const totalUnread = [...unread.values()].reduce((sum, count) => sum + count, 0);
    // The cursor moves on the conversations as fetched, also past one left out as unreadable.
    const page = toKeysetPage(rows, limit, activityKeyOf, (row) => row);
    const items = await conversationViews(c.var.db, readEach('conversations', page.items, readConversation), unread);
    return c.json({ items, nextCursor: page.nextCursor, totalUnread }, 200);
  })
  .openapi(read, async (c) => {
    const conversation = await ownConversation(c, c.req.valid('param').id);
    const callerId = new ObjectId(c.var.user._id);
    const { messageId } = c.req.valid('json');
    const target = messageId ? new ObjectId(messageId) : conversation.lastMessageId;
    if (messageId && !(await messageInConversation(c.var.db, conversation._id, target!))) {
      throw new ApiError(404, 'Message not found in this conversation.');
    }
    const marker = target
      ? await moveReadMarker(c.var.db, conversation._id, callerId, target)
      : markerOf(conversation, callerId);
    // Counted from the stored marker, not the conversation read above: messages may have arrived since.
    const scope = { conversationId: conversation._id, after: marker?.messageId ?? null };
    const unread = await unreadCounts(c.var.db, callerId, [scope]);
    const receipt = {
      conversationId: conversation._id.toHexString(),
      readAt: (marker?.readAt ?? conversation.createdAt).toISOString(),
    };
    if (target) {
      const event = { ...receipt, userId: callerId.toHexString(), messageId: marker?.messageId?.toHexString() ?? null };
      publishAfterWrite(c, { namespace: '/messages', name: 'conversation:read', payload: event }, async () => {
        const others = conversation.participantIds.filter((id) => !id.equals(callerId));
        // A block either way keeps the receipt from the other side, in a conversation shared with others too.
        const blocked = await blockedEitherWayAmong(c.var.db, callerId, others);
        return { riders: others.map((id) => id.toHexString()).filter((id) => !blocked.has(id)) };
      });
    }
    return c.json({ ...receipt, unreadCount: unread.get(receipt.conversationId) ?? 0 }, 200);
  });
