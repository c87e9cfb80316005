import type { JWTPayload } from 'jose';
import { recordServerEvent } from '../../growth/analytics/server-events';
import type { Store } from '../../platform/db/store';
import { logEvent } from '../../platform/ops/log-line';
import type { UserDoc } from '../documents';
import { revokeAllSessions } from '../sessions/service';
import { addressProved } from '../users/address-proof';
import {
  findUserByAppleId,
  findUserByEmail,
  insertUser,
  type NewUser,
  takeOverUnprovedAccount,
  type UserChanges,
  updateUser,
} from '../users/service';
import { emailVerified, stringClaim } from './claims';

export type IdentitySignIn = { user: UserDoc; isNewUser: boolean };

/** Why an identity-provider sign-in found no account to hand out. */
export type IdentityRefusal = 'no-verified-email' | 'no-email' | 'unverified-email' | 'account-gone';

/** Name used when Apple sends none (it sends the name only on first authorization). */
const APPLE_FALLBACK_NAME = 'Apple User';

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

/**
 * A provider proved that the account's address is its owner's. An account whose address was already proved
 * links as it is; one whose address nobody proved (a password registration, a changed address) may have been
 * made by someone else with the owner's address, so it is taken over for the owner: its password goes, every
 * session is revoked and every token issued so far stops working (docs/accounts.md).
 */
async function link(
  store: Store,
  user: UserDoc,
  changes: UserChanges,
  takeOverChanges: UserChanges,
): Promise<IdentitySignIn | 'account-gone'> {
  if (addressProved(user)) return refreshed(store, user, changes);
  const taken = await takeOverUnprovedAccount(store, user._id, { ...changes, ...takeOverChanges });
  // Another provider sign-in proved the address a moment earlier: it links as any proved account.
  if (taken === 'already-proved') return refreshed(store, user, changes);
  if (typeof taken === 'string') return 'account-gone';
  await revokeAllSessions(store, user._id);
  logEvent('accounts.account.taken-over', { userId: user._id.toHexString() });
  return { user: taken, isNewUser: false };
}

/** Google: the account is keyed by verified email; later sign-ins refresh name and picture. */
export async function signInWithGoogle(store: Store, payload: JWTPayload): Promise<IdentitySignIn | IdentityRefusal> {
  const email = stringClaim(payload, 'email')?.toLowerCase();
  if (!email || !emailVerified(payload)) return 'no-verified-email';
  const name = stringClaim(payload, 'name');
  const picture = stringClaim(payload, 'picture');
  const existing = await findUserByEmail(store, email);
  if (!existing) {
    const fields = {
      name: name ?? email.split('@')[0]!,
      email,
      emailVerified: true,
      imageUri: picture,
      googleUserId: payload.sub,
    };
    return createOrFind(store, fields, 'google');
  }
  const profile = { ...(name ? { name } : {}), ...(picture ? { imageUri: picture } : {}) };
  return link(store, existing, profile, { googleUserId: payload.sub });
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
  if (byEmail) return link(store, byEmail, { appleUserId }, suppliedName ? { name: suppliedName } : {});
  const fields = { name: suppliedName ?? APPLE_FALLBACK_NAME, email, emailVerified: true, appleUserId };
  return createOrFind(store, fields, 'apple');
}
