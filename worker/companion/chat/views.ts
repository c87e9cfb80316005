import type { ChatMessageDoc } from '../documents';
import type { CompanionStage } from './stages';

/** The chat routes' answer: the reply's text and stored id, the stage after the turn, and with a voice session whether it is spoken. */
export const replyView = (reply: ChatMessageDoc, stage: CompanionStage, spoken?: boolean) => ({
  reply: reply.text,
  messageId: reply._id.toHexString(),
  stage,
  ...(spoken !== undefined ? { spoken } : {}),
});
