import { requireListSetting, requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import type { IdentityProvider } from './identity-token';

/** Google accepts the token's audience from any of the three registered clients (web, iOS, Android). */
export function googleProvider(env: Env): IdentityProvider {
  return {
    label: 'Google',
    jwksUrl: requireSetting(env, 'GOOGLE_JWKS_URL'),
    issuers: ['accounts.google.com', 'https://accounts.google.com'],
    audiences: requireListSetting(env, 'GOOGLE_CLIENT_IDS'),
  };
}

export function appleProvider(env: Env): IdentityProvider {
  return {
    label: 'Apple',
    jwksUrl: requireSetting(env, 'APPLE_JWKS_URL'),
    issuers: ['https://appleid.apple.com'],
    audiences: requireListSetting(env, 'APPLE_CLIENT_IDS'),
  };
}
