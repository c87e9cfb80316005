import type { Env } from '../../platform/env';
import { MissingSettingError } from '../../platform/setting-error';

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
