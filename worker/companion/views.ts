import type { ChatMessageDoc } from '../db/documents';
import type { CompanionStage } from './stages';

/** The chat routes' answer: the reply's text and stored id, and the stage after the turn. */
export const replyView = (reply: ChatMessageDoc, stage: CompanionStage) => ({
  reply: reply.text,
  messageId: reply._id.toHexString(),
  stage,
});
