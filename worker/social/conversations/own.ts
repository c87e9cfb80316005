import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { findConversation } from './service';

/** The conversation when the caller takes part in it; a 404 for unknown ids and anyone else's (product decisions: private). */
export async function ownConversation(c: { var: AppEnv['Variables'] }, id: string) {
  const conversation = await findConversation(c.var.db, new ObjectId(id), new ObjectId(c.var.user._id));
  if (!conversation) throw new ApiError(404, 'Conversation not found.');
  return conversation;
}
