import type { JWTPayload } from 'jose';
import { recordServerEvent } from '../analytics/server-events';
import type { UserDoc } from '../db/documents';
import type { Store } from '../db/store';
import {
  findUserByAppleId,
  findUserByEmail,
  insertUser,
  type NewUser,
  type UserChanges,
  updateUser,
} from '../users/service';

export type IdentitySignIn = { user: UserDoc; isNewUser: boolean };

/** Why an identity-provider sign-in found no account to hand out. */
export type IdentityRefusal = 'no-verified-email' | 'no-email' | 'unverified-email' | 'account-gone';

/** Name used when Apple sends none (it sends the name only on first authorization). */
const APPLE_FALLBACK_NAME = 'Apple User';

const stringClaim = (payload: JWTPayload, name: string) =>
  typeof payload[name] === 'string' && (payload[name] as string).trim() ? (payload[name] as string).trim() : undefined;

// Providers have sent email_verified both as a boolean and as the string "true".
const emailVerified = (payload: JWTPayload) => payload.email_verified === true || payload.email_verified === 'true';

/**
 * Creates an account, or, when another sign-in created the same email (or Apple ID) a moment
 * earlier, returns that one: the unique indexes decide, not a racy pre-check.
 */
async function createOrFind(
  store: Store,
  fields: NewUser,
  method: 'google' | 'apple',
): Promise<IdentitySignIn | 'account-gone'> {
  const created = await insertUser(store, fields);
  if (typeof created !== 'string') {
    await recordServerEvent(store, created._id, 'signup_completed', { method });
    return { user: created, isNewUser: true };
  }
  const existing =
    created === 'apple-id-taken' && fields.appleUserId
      ? await findUserByAppleId(store, fields.appleUserId)
      : await findUserByEmail(store, fields.email);
  return existing ? { user: existing, isNewUser: false } : 'account-gone';
}

/** Applies sign-in changes; an account deleted meanwhile (or whose new value another took) gets no session. */
async function refreshed(store: Store, user: UserDoc, changes: UserChanges): Promise<IdentitySignIn | 'account-gone'> {
  if (!Object.keys(changes).length) return { user, isNewUser: false };
  const outcome = await updateUser(store, user._id, changes);
  return typeof outcome === 'string' ? 'account-gone' : { user: outcome, isNewUser: false };
}

/** Google: the account is keyed by verified email; later sign-ins refresh name and picture. */
export async function signInWithGoogle(store: Store, payload: JWTPayload): Promise<IdentitySignIn | IdentityRefusal> {
  const email = stringClaim(payload, 'email')?.toLowerCase();
  if (!email || !emailVerified(payload)) return 'no-verified-email';
  const name = stringClaim(payload, 'name');
  const picture = stringClaim(payload, 'picture');
  const existing = await findUserByEmail(store, email);
  if (!existing) {
    const fields = { name: name ?? email.split('@')[0]!, email, imageUri: picture, googleUserId: payload.sub };
    return createOrFind(store, fields, 'google');
  }
  return refreshed(store, existing, { ...(name ? { name } : {}), ...(picture ? { imageUri: picture } : {}) });
}

/**
 * Apple: the subject is the stable key (returning sign-ins may carry no email); a first
 * Apple sign-in links to an existing account with the same email, else creates one.
 */
export async function signInWithApple(
  store: Store,
  payload: JWTPayload,
  suppliedName: string | undefined,
): Promise<IdentitySignIn | IdentityRefusal> {
  const appleUserId = payload.sub!;
  const linked = await findUserByAppleId(store, appleUserId);
  if (linked) {
    const rename = suppliedName && linked.name === APPLE_FALLBACK_NAME ? { name: suppliedName } : {};
    return refreshed(store, linked, rename);
  }
  const email = stringClaim(payload, 'email')?.toLowerCase();
  if (!email) return 'no-email';
  // Linking by an unverified address would hand its account to whoever typed it in.
  if (!emailVerified(payload)) return 'unverified-email';
  const byEmail = await findUserByEmail(store, email);
  if (byEmail) return refreshed(store, byEmail, { appleUserId });
  return createOrFind(store, { name: suppliedName ?? APPLE_FALLBACK_NAME, email, appleUserId }, 'apple');
}
