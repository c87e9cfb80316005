import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse, RETRY_AFTER } from '../http/openapi';
import { LIMITS } from '../limits';
import { auth } from '../middleware/auth';
import { companionReply, ProviderError, type Surface } from './brain';
import { takeChatAllowance } from './chat-limit';
import { providerRefusal, tooManyMessages } from './refusals';
import { ChatBody, CompanionReply, VoiceSessionHeader } from './schema';
import { speakAfterResponse, voiceSessionOf } from './speak';
import { storeChatMessage } from './transcript';
import { replyView } from './views';

const TAGS = ['companion'];

const chatRoute = (path: string, summary: string) =>
  defineRoute({
    method: 'post',
    path,
    tags: TAGS,
    summary,
    description: `Stores the message, answers in the companion's voice and stores the reply. With a valid \`x-voice-session\` the reply is then spoken by the voice box (fire-and-forget: its failure never changes this response). At most ${LIMITS.companion.messagesPerMinute} messages per rider per minute by default.`,
    middleware: [auth()] as const,
    request: { headers: VoiceSessionHeader, ...jsonBody(ChatBody) },
    responses: {
      200: jsonResponse(CompanionReply, "The companion's reply"),
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

/** One turn: persist the message, ask the brain, persist the reply, then speak it after the response. */
async function chat(c: Context<AppEnv>, surface: Surface, message: string, voiceHeader: string | undefined) {
  const limited = await takeChatAllowance(c.env, c.var.user._id);
  if (limited) throw tooManyMessages(limited.retryAfterSeconds);
  const userId = new ObjectId(c.var.user._id);
  const voiceSession = voiceSessionOf(voiceHeader);
  const stored = await storeChatMessage(c.var.db, surface, userId, 'user', message);
  const answer = await companionReply(c.var.db, c.env, {
    userId,
    accountName: c.var.user.name,
    surface,
    message,
    messageId: stored._id,
    onStage: voiceSession !== null,
  }).catch((err: unknown) => {
    throw err instanceof ProviderError ? providerRefusal(err) : err;
  });
  const reply = await storeChatMessage(c.var.db, surface, userId, 'assistant', answer.reply);
  if (voiceSession) speakAfterResponse(c.executionCtx, c.env, voiceSession, answer.reply);
  return replyView(reply, answer.stage);
}

/** The companion's two chat routes (the product decisions, Companion), mounted under /api. */
export const companionRoutes = createRouter<AppEnv>()
  .openapi(dm, async (c) =>
    c.json(await chat(c, 'dm', c.req.valid('json').message, c.req.valid('header')['x-voice-session']), 200),
  )
  .openapi(botChat, async (c) =>
    c.json(await chat(c, 'bot', c.req.valid('json').message, c.req.valid('header')['x-voice-session']), 200),
  );
