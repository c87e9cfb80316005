import type { Env } from '../env';
import { LIMITS } from '../limits';
import { voiceBoxFetch } from '../voice/service';

// The voice box's speak request (the interface spec, Voice service): fire-and-forget after the chat response.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The voice session id when the header holds a UUID; anything else is ignored for voice (never put in a URL). */
export function voiceSessionOf(header: string | undefined): string | null {
  const value = header?.trim();
  return value && UUID.test(value) ? value.toLowerCase() : null;
}

/**
 * Asks the voice box to speak the reply once the chat response is on its way: deferred past the
 * handler's return inside waitUntil, bounded by a timeout, every failure logged and swallowed,
 * so a slow, failing or absent voice box never touches the response, its status or its timing.
 */
export function speakAfterResponse(
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  env: Env,
  sessionId: string,
  text: string,
): void {
  ctx.waitUntil(
    (async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      // The voice box instance holding the session (worker/voice/service.ts); null when none is configured.
      const answer = voiceBoxFetch(env, sessionId, `/speak/${sessionId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(LIMITS.companion.speakTimeoutMs),
      });
      if (!answer) return;
      const res = await answer;
      await res.body?.cancel();
      if (!res.ok) console.warn(`voice box answered ${res.status} to a speak request`);
    })().catch((err: unknown) => console.warn('speak request failed', err instanceof Error ? err.message : err)),
  );
}
