import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { signingKeys } from '../../platform/tokens/keys';
import { claimsFor, signSessionToken } from '../../platform/tokens/token';
import type { UserDoc } from '../documents';
import { hashToken, newRefreshToken } from './refresh-token';
import { createSession } from './service';
import { sessionSettings } from './settings';

/** The header a client sends on registration or sign-in to opt into expiring tokens (docs/sessions.md). */
export const SESSION_MODE_HEADER = 'x-session-mode';

export const optsIn = (header: string | undefined) => header?.trim().toLowerCase() === 'refresh';

/** An opt-in access token: the five Live claims plus `iat`, `exp` and `sid`, signed with JWT_SECRET. */
export async function accessToken(
  env: Env,
  user: UserDoc,
  sessionId: string,
): Promise<{ token: string; expiresIn: number }> {
  const { accessTtlS } = sessionSettings(env);
  const exp = Math.floor(Date.now() / 1000) + accessTtlS;
  const token = await signSessionToken(claimsFor(user), signingKeys(env).current, { exp, sid: sessionId });
  return { token, expiresIn: accessTtlS };
}

/** A token without expiry or session, as Live sign-in signs it, at the account's current token version. */
export const legacyToken = (env: Env, user: UserDoc) => signSessionToken(claimsFor(user), signingKeys(env).current);

/** Starts a session for a sign-in that opted in: its refresh token (stored as a hash only) and first access token. */
export async function openSession(
  env: Env,
  store: Store,
  user: UserDoc,
  userAgent: string | undefined,
): Promise<{ token: string; refreshToken: string; expiresIn: number }> {
  const { refreshTtlMs } = sessionSettings(env);
  const { familyId, token: refreshToken } = newRefreshToken();
  const session = await createSession(store, {
    userId: user._id,
    familyId,
    tokenHash: await hashToken(refreshToken),
    device: userAgent?.trim().slice(0, LIMITS.sessions.deviceMax) || 'unknown device',
    ttlMs: refreshTtlMs,
  });
  return { ...(await accessToken(env, user, session._id.toHexString())), refreshToken };
}
