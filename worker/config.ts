import type { Env } from './env';
import { ApiError } from './http/errors';

type SettingName =
  | 'MONGODB_URI'
  | 'JWT_SECRET'
  | 'GOOGLE_CLIENT_IDS'
  | 'APPLE_CLIENT_IDS'
  | 'GOOGLE_JWKS_URL'
  | 'APPLE_JWKS_URL';

/**
 * Reads a required setting. A missing one is an operator error, so the request fails
 * with a 500 that names the setting instead of running on a made-up default.
 */
export function requireSetting(env: Env, name: SettingName): string {
  const value = env[name]?.trim();
  if (!value) {
    throw new ApiError(
      500,
      `Server misconfigured: ${name} is not set. Set it in .dev.vars locally or with \`wrangler secret put ${name}\`.`,
    );
  }
  return value;
}

/** A comma-separated list setting, e.g. the accepted OAuth client ids. */
export function requireListSetting(env: Env, name: SettingName): string[] {
  return requireSetting(env, name)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
