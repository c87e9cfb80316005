import { positiveIntSetting, requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';

export interface SessionSettings {
  accessTtlS: number;
  refreshTtlMs: number;
  graceMs: number;
  /** HMAC key of the successor derivation (worker/accounts/sessions/refresh-token.ts); required in opt-in mode only. */
  refreshSecret: string;
}

/** The opt-in session settings; a missing REFRESH_TOKEN_SECRET is refused by name, as every required setting. */
export function sessionSettings(env: Env): SessionSettings {
  const { refreshTokenTtlDays, refreshGraceS } = LIMITS.sessions;
  return {
    accessTtlS: accessTtlS(env),
    refreshTtlMs: positiveIntSetting(env, 'REFRESH_TOKEN_TTL_DAYS', refreshTokenTtlDays) * 86_400_000,
    graceMs: positiveIntSetting(env, 'REFRESH_GRACE_S', refreshGraceS) * 1000,
    refreshSecret: requireSetting(env, 'REFRESH_TOKEN_SECRET'),
  };
}

/** The opt-in access token lifetime alone, for revocations, which need no refresh secret. */
export const accessTtlS = (env: Env) => positiveIntSetting(env, 'ACCESS_TOKEN_TTL_S', LIMITS.sessions.accessTokenTtlS);
