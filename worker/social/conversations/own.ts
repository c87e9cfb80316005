import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { gatewayQuery } from '../../platform/db/gateway-queries';
import { ApiError } from '../../platform/http/errors';
import { isIdString } from '../../platform/http/ids';
import { ReadAhead } from '../../platform/middleware/read-ahead';
import type { ForSendingArgs } from './for-sending';
import { findConversation } from './service';

/** The conversation when the caller takes part in it; a 404 for unknown ids and anyone else's (product decisions: private). */
export async function ownConversation(c: { var: AppEnv['Variables'] }, id: string) {
  const conversation = await findConversation(c.var.db, new ObjectId(id), new ObjectId(c.var.user._id));
  if (!conversation) throw new ApiError(404, 'Conversation not found.');
  return conversation;
}

/** Whether the rider takes part in the conversation, as a gateway query: its id as hex when they do, else null. */
export const ownConversationId = gatewayQuery(
  'own-conversation-id',
  true,
  async (store, { conversationId, userId }: ForSendingArgs) =>
    (await findConversation(store, new ObjectId(conversationId), new ObjectId(userId)))?._id.toHexString() ?? null,
  (wire: string | null) => wire,
);

/**
 * The caller's conversation of the path, read in the access check's call to the database (./own.ts's ownConversation
 * in one hop fewer): a route reading a conversation's contents takes the answer for the id it validated.
 */
export const ownConversationAhead = new ReadAhead(
  (params, claims) => (isIdString(params.id) ? { conversationId: params.id, userId: claims._id } : undefined),
  ownConversationId,
);

/** The id of the caller's conversation of the path: as the access check read it ahead, or read now; else a 404. */
export async function ownConversationIdOf(
  c: { req: { raw: Request }; var: AppEnv['Variables'] },
  id: string,
): Promise<ObjectId> {
  const userId = c.var.user._id;
  const ahead = ownConversationAhead.take(c.req.raw, (args) => args.conversationId === id && args.userId === userId);
  if (!ahead) return (await ownConversation(c, id))._id;
  if (!ahead.answer) throw new ApiError(404, 'Conversation not found.');
  return ObjectId.createFromHexString(ahead.answer);
}
