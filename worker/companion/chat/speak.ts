import { requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { describeError, logEvent } from '../../platform/ops/log-line';
import { SESSION_HEADER, voiceBoxFetch } from '../voice/service';
import { maySpeakInto } from '../voice/session-owner';
import { voiceConfigured } from '../voice/settings';

// The voice box's speak request (the interface spec, Voice service): fire-and-forget after the chat response.

/**
 * Why a reply is not spoken: no valid `x-voice-session` came with it, this deployment has no voice box, the
 * session was opened with another rider's token, or a free rider has no credit for priced speech.
 */
export const UNSPOKEN_REASONS = ['no-session', 'voice-off', 'not-your-session', 'no-credit'] as const;
export type UnspokenReason = (typeof UNSPOKEN_REASONS)[number];

/** Whether the chat answer's reply is spoken, and if not, why. */
export type Speech = { spoken: true } | { spoken: false; reason: UnspokenReason };

/** usage_events' model for speech: the voice box's synthesiser (voice-node/). */
export const VOICE_MODEL = 'voice-box';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The voice session id when the header holds a UUID; anything else is ignored for voice (never put in a URL). */
export function voiceSessionOf(header: string | undefined): string | null {
  const value = header?.trim();
  return value && UUID.test(value) ? value.toLowerCase() : null;
}

declare const checked: unique symbol;
/** A session id the caller may speak into; only `speakableSession` makes one, so no reply reaches a session unchecked. */
export type SpeakableSession = string & { readonly [checked]: true };

/**
 * The session when a voice box is configured and `callerId` may speak into it (its owner's, or one opened without a
 * token), else why not.
 */
export async function speakableSession(
  env: Env,
  sessionId: string | null,
  callerId: string,
): Promise<{ session: SpeakableSession } | { spoken: false; reason: Exclude<UnspokenReason, 'no-credit'> }> {
  if (sessionId === null) return { spoken: false, reason: 'no-session' };
  if (!voiceConfigured(env)) return { spoken: false, reason: 'voice-off' };
  return (await maySpeakInto(requireSetting(env, 'JWT_SECRET'), sessionId, callerId))
    ? { session: sessionId as SpeakableSession }
    : { spoken: false, reason: 'not-your-session' };
}

/**
 * Asks the voice box to speak the reply once the chat response is on its way: deferred past the
 * handler's return, bounded by a timeout, every failure logged and swallowed, so a slow, failing
 * or absent voice box never touches the response, its status or its timing. Resolves to whether
 * the voice box took it, which decides whether a paid speech settles or is refunded.
 */
export async function speakReply(env: Env, sessionId: SpeakableSession, text: string): Promise<boolean> {
  try {
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The voice box instance holding the session (worker/companion/voice/service.ts); null when none is configured.
    // The session id lets whoever holds it speak into the session: a header, never the path a proxy logs.
    const answer = voiceBoxFetch(env, sessionId, '/speak', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SESSION_HEADER]: sessionId },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(LIMITS.companion.speakTimeoutMs),
    });
    if (!answer) return false;
    const res = await answer;
    await res.body?.cancel();
    if (!res.ok) logEvent('companion.speak.refused', { status: res.status });
    return res.ok;
  } catch (err) {
    logEvent('companion.speak.failed', { error: describeError(err) });
    return false;
  }
}
