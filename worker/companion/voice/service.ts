import { positiveIntSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { describeError, logEvent } from '../../platform/ops/log-line';
import { voiceConfigured, voiceUrl } from './settings';

/** What the voice box said to a WebSocket upgrade, or why it could not be asked. */
export type VoiceUpgrade = Response | 'not-configured' | 'unreachable';

/** The header through which the Worker names the session when it routes to a container instance (voice-node/src/server.ts). */
export const SESSION_HEADER = 'x-voice-session-id';

/**
 * The container instance that holds a session: the first 32 bits of its UUID, modulo the instance count.
 * The WebSocket and every speak request compute the same name from the id alone, so no record is kept.
 */
export function voiceInstanceName(sessionId: string, instances: number): string {
  return `voice-${Number.parseInt(sessionId.slice(0, 8), 16) % instances}`;
}

/**
 * A request to the voice box that holds `sessionId`: at VOICE_URL when set (one box: local, or behind a
 * proxy), else on its Cloudflare Container instance when VOICE_INSTANCES is set; null when neither is.
 * The chat routes' fire-and-forget speak goes through here too, so both reach the same instance.
 */
export function voiceBoxFetch(env: Env, sessionId: string, path: string, init: RequestInit): Promise<Response> | null {
  const base = voiceUrl(env);
  if (base) return fetch(`${base}${path}`, init);
  if (!voiceConfigured(env)) return null;
  const instances = positiveIntSetting(env, 'VOICE_INSTANCES', 1);
  const stub = env.VOICE_BOX.get(env.VOICE_BOX.idFromName(voiceInstanceName(sessionId, instances)));
  return stub.fetch(new Request(`http://voice-box${path}`, init));
}

/**
 * Hands a WebSocket upgrade to the voice box's `/ws`. workerd passes the upgrade through a fetch that
 * carries `Upgrade: websocket`, and the 101 it answers, socket included, goes back to the client as is.
 * The Worker names the session (the voice box keeps it), which is what routes later speak requests and
 * carries its owner (session-owner.ts). `protocols` is the Sec-WebSocket-Protocol to offer it, a token taken out.
 */
export async function upgradeToVoiceBox(
  env: Env,
  request: Request,
  sessionId: string,
  protocols: string | undefined,
): Promise<VoiceUpgrade> {
  const headers = new Headers(request.headers);
  // The caller's token never travels on (nor the query that may hold it), and a client cannot pick its own session id.
  headers.delete('x-auth-token');
  headers.delete('authorization');
  if (protocols) headers.set('sec-websocket-protocol', protocols);
  else headers.delete('sec-websocket-protocol');
  headers.set(SESSION_HEADER, sessionId);
  try {
    const answer = voiceBoxFetch(env, sessionId, '/ws', { method: 'GET', headers });
    return answer ? await answer : 'not-configured';
  } catch (err) {
    logEvent('voice.box.unreachable', { error: describeError(err) });
    return 'unreachable';
  }
}
