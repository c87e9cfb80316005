import { z } from '@hono/zod-openapi';
import { multiLineText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';
import { STAGES } from './stages';

export const ChatBody = z
  .object({
    message: multiLineText()
      .trim()
      .min(1)
      .max(LIMITS.companion.messageMax)
      .describe('what the rider says; line breaks and tabs are kept, other control characters are refused'),
  })
  .strict();

export const VoiceSessionHeader = z.object({
  'x-voice-session': z
    .string()
    .optional()
    .describe(
      "the voice box's session id (a UUID from its `_ready` message): the reply is also spoken there, unless the session was opened with another rider's token, and the request counts as on-stage; anything not a UUID is ignored",
    ),
});

export const CompanionReply = z
  .object({
    reply: z.string().describe('1 to 3 short sentences; an on-stage trick demo has the fixed 7-sentence structure'),
    messageId: z.string().describe("the stored reply's id"),
    stage: z.enum(STAGES).optional().describe('the relationship stage after this turn'),
    spoken: z
      .boolean()
      .optional()
      .describe(
        "present with a valid `x-voice-session`: whether the reply goes to the voice box. False when the session was opened with another rider's token, or a free rider has no credit for speech (the text reply is served all the same)",
      ),
  })
  .openapi('CompanionReply');

export const PaymentRequired = z
  .object({
    error: z.string(),
    balance: z.number().int().describe('credits spendable now'),
    needed: z.number().int().describe('credits this reply reserves (its most; the rest is given back after it)'),
  })
  .openapi('PaymentRequired');
