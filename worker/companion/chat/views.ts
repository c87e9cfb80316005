import type { ChatMessageDoc } from '../documents';
import type { Speech } from './speak';
import type { CompanionStage } from './stages';

/** The chat routes' answer: the reply's text and stored id, the stage after the turn, and whether it is spoken (if not, why). */
export const replyView = (reply: ChatMessageDoc, stage: CompanionStage, speech: Speech) => ({
  reply: reply.text,
  messageId: reply._id.toHexString(),
  stage,
  ...speech,
});
