import { requireSetting } from '../config';
import type { Env } from '../env';
import type { SigningKeys } from './token';

/** JWT_SECRET signs and verifies; JWT_SECRET_PREVIOUS, when set, still verifies (rotation: docs/sessions.md). */
export function signingKeys(env: Env): SigningKeys {
  const current = requireSetting(env, 'JWT_SECRET');
  const previous = env.JWT_SECRET_PREVIOUS?.trim();
  return previous ? { current, previous } : { current };
}
