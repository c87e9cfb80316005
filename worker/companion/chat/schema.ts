import { z } from '@hono/zod-openapi';
import { multiLineText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';
import { UNSPOKEN_REASONS } from './speak';
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
      "the voice box's session id (a UUID from its `_ready` message): the reply is also spoken there, unless the session was opened with another rider's token, and the request counts as on-stage; anything not a UUID is ignored for voice (`spoken: false`, reason `no-session`)",
    ),
});

export const CompanionReply = z
  .object({
    reply: z.string().describe('1 to 3 short sentences; an on-stage trick demo has the fixed 7-sentence structure'),
    messageId: z.string().describe("the stored reply's id"),
    stage: z.enum(STAGES).optional().describe('the relationship stage after this turn'),
    spoken: z
      .boolean()
      .describe(
        'whether the reply goes to the voice box to be spoken; when false, `reason` says why (the text reply is served all the same)',
      ),
    reason: z
      .enum(UNSPOKEN_REASONS)
      .optional()
      .describe(
        "with `spoken: false`: `no-session` (no `x-voice-session`, or one that is not a UUID), `voice-off` (this deployment has no voice box), `not-your-session` (the session was opened with another rider's token), `no-credit` (a free rider without credit for priced speech; speech from the local engine is free)",
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
