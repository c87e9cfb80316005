import type { ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { SPORTS } from '../../platform/sports';
import { readCompanionPersona } from '../stored';
import { demoRequest, enforceDemo } from './demo';
import { isSubstantiveTurn, moodOf } from './intents';
import { mergeCompanionMemory } from './memory';
import { personaPrompt } from './persona';
import { costMicros } from './pricing';
import { findPersona, recordTurn, type TurnLearnings } from './profile';
import type { ChatMessage, ModelProvider, PersonaContext } from './providers/types';
import { clampSentences } from './sentences';
import type { CompanionStage } from './stages';
import { runToolLoop } from './tool-loop';
import { recentChatRows, type Surface } from './transcript';

export { ProviderError } from './providers/types';
export type { Surface } from './transcript';

/** One rider message, already stored by the caller (the interface spec: callers persist it first). */
export interface CompanionTurn {
  userId: ObjectId;
  /** The account's name, the companion's name for the rider until they say otherwise. */
  accountName?: string;
  surface: Surface;
  message: string;
  /** The stored row of `message`, so memory does not repeat it. */
  messageId: ObjectId;
  /** A valid voice session came with the request: the reply is spoken on the 3D stage. */
  onStage: boolean;
}

export interface CompanionAnswer {
  reply: string;
  /** The relationship stage after this turn. */
  stage: CompanionStage;
  /** What the turn's model calls used, for its settle and usage row (worker/billing/ai-credits/paid-call.ts). */
  usage: { model: string; promptTokens: number; completionTokens: number; costMicros: number | null };
}

const SILENT_MODEL_LINE = 'Sorry, I lost my line there. Say that again?';

const isSport = (value: string): value is (typeof SPORTS)[number] => (SPORTS as readonly string[]).includes(value);

/**
 * The brain: builds the persona and memory, runs the tool loop on the configured model, shapes
 * the reply (1 to 3 sentences, or the stage demo's structure), then records the turn on the
 * rider's profile and in analytics. A model failure throws ProviderError before anything is
 * recorded, so the caller's stored message is all that remains of the turn. The caller picks the
 * provider (providers/select.ts), having paid for it when it is priced.
 */
export async function companionReply(
  store: Store,
  env: Env,
  provider: ModelProvider,
  turn: CompanionTurn,
): Promise<CompanionAnswer> {
  const [profile, rows] = await Promise.all([findPersona(store, turn.userId), recentChatRows(store, turn.userId)]);
  const memory = mergeCompanionMemory({
    userId: turn.userId,
    ...rows,
    prompt: { id: turn.messageId, text: turn.message },
  });
  const demoTrick = turn.onStage ? (demoRequest(turn.message) ?? undefined) : undefined;
  const persona: PersonaContext = {
    name: profile?.name ?? turn.accountName,
    stage: profile?.stage ?? 'stranger',
    facts: profile?.facts ?? [],
    sports: profile?.sports ?? [],
    demoTrick,
  };
  const messages: ChatMessage[] = [
    { role: 'system', content: personaPrompt(persona) },
    ...memory.map((row) => ({ role: row.role, content: row.text })),
    { role: 'user', content: turn.message },
  ];
  const learnings: TurnLearnings = { facts: [], sports: [], mood: moodOf(turn.message) };
  const sport = persona.sports.find(isSport) ?? 'skateboarding';
  const startedAt = Date.now();
  const result = await runToolLoop(provider, messages, persona, {
    store,
    env,
    userId: turn.userId,
    now: new Date(),
    sport,
    learnings,
  });
  const latencyMs = Date.now() - startedAt;
  const text = result.content?.trim() ?? '';
  const reply = demoTrick
    ? enforceDemo(text, demoTrick).text
    : clampSentences(text, LIMITS.companion.replySentencesMax) || SILENT_MODEL_LINE;

  const { profile: updated, sessionStarted } = await recordTurn(store, turn.userId, learnings, turn.accountName);
  // The pipeline set the stage from the count it wrote; read like any stored profile all the same.
  const stage = readCompanionPersona(updated)?.stage ?? 'stranger';
  const common = { surface: turn.surface, provider: provider.name, model: provider.model, onStage: turn.onStage };
  const cost = costMicros(provider.model, result.usage);
  if (sessionStarted) await recordServerEvent(store, turn.userId, 'ai_session_started', common);
  await recordServerEvent(store, turn.userId, 'ai_response_completed', {
    ...common,
    latencyMs,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
    inputChars: result.inputChars,
    outputChars: reply.length,
    costMicros: cost,
    modelCalls: result.modelCalls,
    toolCalls: result.toolCalls,
    stage,
    demo: Boolean(demoTrick),
    substantive: isSubstantiveTurn(turn.message, result.toolCalls),
  });
  return { reply, stage, usage: { model: provider.model, ...result.usage, costMicros: cost } };
}
