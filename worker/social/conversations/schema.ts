import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import { PublicUser } from '../../accounts/users/schema';
import { IdString } from '../../platform/http/ids';
import { keysetCursor } from '../../platform/http/keyset-cursor';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { Message } from '../messages/schema';
import type { ActivityKey } from './service';

const { participantsMax } = LIMITS.conversation;

export const NewConversation = z
  .object({
    participantIds: z
      .array(IdString)
      .min(1)
      .max(participantsMax)
      .describe(`the other riders (the caller is always added); ${participantsMax} participants at most`),
  })
  .strict();

const activityKey = (key: unknown): ActivityKey | undefined => {
  if (!Array.isArray(key) || key.length !== 2) return undefined;
  const [at, id] = key;
  // A null time: the tail of conversations older code stored without an activity date (worker/social/conversations/service.ts).
  const usableAt = at === null || (typeof at === 'number' && Number.isFinite(at));
  if (!usableAt || typeof id !== 'string' || !/^[0-9a-f]{24}$/.test(id)) return undefined;
  return { at: at === null ? null : new Date(at), id: new ObjectId(id) };
};

export const ConversationQuery = PageQuery.extend({ cursor: keysetCursor(activityKey) });

export const Conversation = z
  .object({
    _id: z.string(),
    participants: z.array(PublicUser).describe('everyone in it, the caller included'),
    lastMessage: Message.nullable(),
    unreadCount: z.number().int().describe("messages after the caller's read marker not sent by the caller"),
    lastActivityAt: z.string().describe('the newest message, or the creation when there is none'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Conversation');

export const ConversationPage = pageOf(Conversation).extend({
  totalUnread: z.number().int().describe("unread messages across all the caller's conversations"),
});

export const ReadBody = z
  .object({ messageId: IdString.optional().describe('read up to this message; the latest when left out') })
  .strict();

export const ReadState = z
  .object({ conversationId: z.string(), readAt: z.string(), unreadCount: z.number().int() })
  .openapi('ConversationReadState');
