import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { findUserById } from '../../accounts/users/service';
import { isRefused, payForReply, payForSpeech, refundCall, settleCall } from '../../billing/ai-credits/paid-call';
import { hasPremium } from '../../billing/entitlements';
import { type Plan, paidAiSettings, replyCredits } from '../../billing/paid-ai';
import type { AppEnv } from '../../platform/app-env';
import type { Store } from '../../platform/db/store';
import {
  createRouter,
  defineRoute,
  errorResponse,
  jsonBody,
  jsonResponse,
  RETRY_AFTER,
} from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { describeError, logEvent } from '../../platform/ops/log-line';
import type { ChatMessageDoc } from '../documents';
import { speechIsPriced } from '../voice/settings';
import { type CompanionAnswer, companionReply, ProviderError, type Surface } from './brain';
import { takeChatAllowance } from './chat-limit';
import { modelProvider } from './providers/select';
import { paymentRequired, providerRefusal, tooManyMessages } from './refusals';
import { ChatBody, CompanionReply, PaymentRequired, VoiceSessionHeader } from './schema';
import { type Speech, speakableSession, speakReply, VOICE_MODEL, voiceSessionOf } from './speak';
import { storeChatMessage } from './transcript';
import { replyView } from './views';

const TAGS = ['companion'];

const chatRoute = (path: string, summary: string) =>
  defineRoute({
    method: 'post',
    path,
    tags: TAGS,
    summary,
    description: `Stores the message, answers in the companion's voice and stores the reply. With a valid \`x-voice-session\` the reply is then spoken by the voice box (fire-and-forget: its failure never changes this response). At most ${LIMITS.companion.messagesPerMinute} messages per rider per minute by default. Replies of a priced model (OPENAI_API_KEY set) come from the plan's daily allowance, then cost credits (\`GET /api/users/me/ai-credits\`): the reply's most is reserved first, its real cost settled after, all of it given back when the model fails. The offline companion's replies cost nothing and take neither. Priced speech (\`VOICE_ENGINE=openai\`) costs credits on the free plan; speech from the local engine (espeak-ng, the default) is free. \`spoken\` is always present; when false, \`reason\` says why (\`no-session\`, \`voice-off\`, \`not-your-session\`, \`no-credit\`).`,
    middleware: [auth()] as const,
    request: { headers: VoiceSessionHeader, ...jsonBody(ChatBody) },
    responses: {
      200: jsonResponse(CompanionReply, "The companion's reply"),
      402: jsonResponse(
        PaymentRequired,
        "Today's allowance is used up and the credit balance does not cover the reply's most; the message is kept",
      ),
      429: errorResponse('Too many messages this minute; Retry-After gives the seconds to wait', RETRY_AFTER),
      502: errorResponse('The model provider failed; the message is kept'),
      503: errorResponse(
        'The model provider is unavailable (or the database); retry after Retry-After seconds',
        RETRY_AFTER,
      ),
    },
  });

const dm = chatRoute('/dm', 'Chat with the companion on the web direct-message surface (stored in dm_messages)');
const botChat = chatRoute(
  '/bot-chat/message',
  'Chat with the companion in the mobile app or on the 3D stage (stored in bot_chats)',
);

/** Premium or free, from the stored account (entitlements come only from the payment webhook). */
async function planOf(store: Store, userId: ObjectId): Promise<Plan> {
  const user = await findUserById(store, userId);
  return hasPremium(user?.subscription) ? 'premium' : 'free';
}

/**
 * One turn: persist the message, pay for the reply when its model is priced (allowance, else a
 * credit reservation; 402 when neither covers it), ask the brain, settle what it cost or refund it
 * when it failed, persist the reply, then speak it after the response when paid for.
 */
async function chat(c: Context<AppEnv>, surface: Surface, message: string, voiceHeader: string | undefined) {
  const limited = await takeChatAllowance(c.env, c.var.user._id);
  if (limited) throw tooManyMessages(limited.retryAfterSeconds);
  const store = c.var.db;
  const userId = new ObjectId(c.var.user._id);
  const voiceSession = voiceSessionOf(voiceHeader);
  const [stored, plan] = await Promise.all([
    storeChatMessage(store, surface, userId, 'user', message),
    planOf(store, userId),
  ]);
  const provider = modelProvider(c.env);
  const payment = await payForReply(store, c.env, { userId, plan, surface }, provider.priced);
  if (isRefused(payment)) throw paymentRequired(payment.balance, payment.needed);
  let answer: CompanionAnswer;
  try {
    answer = await companionReply(store, c.env, provider, {
      userId,
      accountName: c.var.user.name,
      surface,
      message,
      messageId: stored._id,
      onStage: voiceSession !== null,
    });
  } catch (err) {
    await refundCall(store, payment);
    throw err instanceof ProviderError ? providerRefusal(err) : err;
  }
  const { usage } = answer;
  await settleCall(store, payment, {
    callId: `chat:${stored._id.toHexString()}`,
    operation: 'chat',
    model: usage.model,
    inputTokens: usage.promptTokens,
    outputTokens: usage.completionTokens,
    costMicros: usage.costMicros,
    credits: replyCredits(usage.costMicros, paidAiSettings(c.env)),
  });
  const reply = await storeChatMessage(store, surface, userId, 'assistant', answer.reply);
  const speech = await speakIfPaid(c, { userId, plan }, voiceSession, reply);
  return replyView(reply, answer.stage, speech);
}

/**
 * Pays for speaking the reply (credits for free riders when the engine is priced) and hands it to
 * the voice box after the response: settled when the voice box takes it, refunded when it does not.
 * Unspoken, with the reason, when there is no session or voice box, the session belongs to another
 * rider, or a free rider cannot pay: the text reply is served all the same, never refused.
 */
async function speakIfPaid(
  c: Context<AppEnv>,
  caller: { userId: ObjectId; plan: Plan },
  voiceSession: string | null,
  reply: ChatMessageDoc,
): Promise<Speech> {
  const speakable = await speakableSession(c.env, voiceSession, caller.userId.toHexString());
  if (!('session' in speakable)) return speakable;
  const { session } = speakable;
  const store = c.var.db;
  const speech = await payForSpeech(store, c.env, caller, reply.text.length, speechIsPriced(c.env));
  if (isRefused(speech)) return { spoken: false, reason: 'no-credit' };
  c.var.inBackground(async () => {
    try {
      if (!(await speakReply(c.env, session, reply.text))) return await refundCall(store, speech);
      await settleCall(store, speech, {
        callId: `voice:${reply._id.toHexString()}`,
        operation: 'voice',
        model: VOICE_MODEL,
        characters: reply.text.length,
        costMicros: speech.by === 'free' ? 0 : null,
        credits: speech.by === 'credits' ? speech.reservation.amount : 0,
      });
    } catch (err) {
      // The sweep releases a reservation this left behind (worker/billing/ai-credits/reservations.ts).
      logEvent('companion.speech.not-settled', { messageId: reply._id.toHexString(), error: describeError(err) });
    }
  });
  return { spoken: true };
}

/** The companion's two chat routes (the product decisions, Companion), mounted under /api. */
export const companionChatRoutes = createRouter<AppEnv>()
  .openapi(dm, async (c) =>
    c.json(await chat(c, 'dm', c.req.valid('json').message, c.req.valid('header')['x-voice-session']), 200),
  )
  .openapi(botChat, async (c) =>
    c.json(await chat(c, 'bot', c.req.valid('json').message, c.req.valid('header')['x-voice-session']), 200),
  );
