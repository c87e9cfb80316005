import type { Env } from '../../platform/env';
import { MissingSettingError } from '../../platform/setting-error';

/**
 * The voice box's speech engines and whether each costs money: espeak-ng runs in the box for nothing, OpenAI speech
 * is billed per character. Only a priced engine's speech is paid for (worker/companion/chat/routes.ts).
 */
const ENGINE_PRICED = { espeak: false, openai: true } as const;
export type VoiceEngine = keyof typeof ENGINE_PRICED;

/**
 * The voice box's engine, `VOICE_ENGINE` (`espeak`, the default, or `openai`): the same setting the voice box reads
 * (voice-node/src/settings.ts), handed to its containers (durable-objects/voice-box.ts) and by `npm run dev` to both.
 */
export function voiceEngine(env: Env): VoiceEngine {
  const value = env.VOICE_ENGINE?.trim() || 'espeak';
  if (value in ENGINE_PRICED) return value as VoiceEngine;
  throw new MissingSettingError('VOICE_ENGINE', `must be "espeak" or "openai", not "${env.VOICE_ENGINE}"`);
}

/** Whether speaking a reply costs money on this deployment. */
export const speechIsPriced = (env: Env) => ENGINE_PRICED[voiceEngine(env)];

/** Whether this deployment has a voice box: at VOICE_URL, or as VOICE_INSTANCES containers. */
export const voiceConfigured = (env: Env) => voiceUrl(env) !== null || Boolean(env.VOICE_INSTANCES?.trim());

/** The voice box's base URL (`VOICE_URL`), or null when this deployment has none. */
export function voiceUrl(env: Env): string | null {
  return env.VOICE_URL?.trim().replace(/\/+$/, '') || null;
}

/**
 * Whether `/voice/ws` requires a session token (the interface spec's Planned hardening): off unless
 * `VOICE_WS_AUTH=required`, since existing clients connect without one.
 */
export function voiceAuthRequired(env: Env): boolean {
  const value = env.VOICE_WS_AUTH?.trim().toLowerCase();
  if (!value || value === 'off') return false;
  if (value === 'required') return true;
  throw new MissingSettingError('VOICE_WS_AUTH', `must be "required" or "off", not "${env.VOICE_WS_AUTH}"`);
}
