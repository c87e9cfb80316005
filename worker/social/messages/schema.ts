import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { IdString, pathId } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';

const { messageTextMax } = LIMITS.conversation;

export const ConversationParam = z.object({ id: pathId('id') });

export const SenderSocket = z.object({
  'x-socket-id': z
    .string()
    .max(64)
    .optional()
    .describe(
      "the sender's /messages socket id (`socket.id` in socket.io-client): that connection does not receive its own message:created",
    ),
});

export const MessageBody = z.object({ text: z.string().trim().min(1).max(messageTextMax) }).strict();

export const MessageQuery = PageQuery.extend({
  after: IdString.optional().describe(
    'a message id: answers the messages newer than it, oldest first (catching up); not combined with cursor',
  ),
});

export const Message = z
  .object({
    _id: z.string(),
    conversationId: z.string(),
    sender: PublicUser.nullable().describe('null when the sender has since deleted their account'),
    text: z.string(),
    filtered: z
      .literal(true)
      .optional()
      .describe(
        'present when the text matched the word filter and you do not follow the sender: show it folded (docs/moderation.md)',
      ),
    createdAt: z.string(),
  })
  .openapi('DirectMessage');

export const MessagePage = pageOf(Message).describe(
  'Newest first, nextCursor for older ones; with `after`, oldest first and nextCursor null (a full page means ask again with the last id)',
);
