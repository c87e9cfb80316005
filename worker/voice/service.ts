import type { Env } from '../env';
import { voiceUrl } from './settings';

/** What the voice box said to a WebSocket upgrade, or why it could not be asked. */
export type VoiceUpgrade = Response | 'not-configured' | 'unreachable';

/**
 * Hands a WebSocket upgrade to the voice box's `/ws`. workerd passes the upgrade through a fetch that
 * carries `Upgrade: websocket`, and the 101 it answers, socket included, goes back to the client as is.
 * The caller's token is not forwarded: the voice box never needs it.
 */
export async function upgradeToVoiceBox(env: Env, request: Request): Promise<VoiceUpgrade> {
  const base = voiceUrl(env);
  if (!base) return 'not-configured';
  const headers = new Headers(request.headers);
  headers.delete('x-auth-token');
  headers.delete('authorization');
  try {
    return await fetch(`${base}/ws`, { method: 'GET', headers });
  } catch (err) {
    console.error(`voice box unreachable at ${base}: ${(err as Error).message}`);
    return 'unreachable';
  }
}
