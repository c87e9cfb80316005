import type { JWTPayload } from 'jose';
import { recordSignUp } from '../analytics/server-events';
import type { UserDoc } from '../db/documents';
import type { Store } from '../db/store';
import { ApiError } from '../http/errors';
import { insertUser, updateUser } from '../users/service';

export interface IdentitySignIn {
  user: UserDoc;
  isNewUser: boolean;
}

/** Name used when Apple sends none (it sends the name only on first authorization). */
export const APPLE_FALLBACK_NAME = 'Apple User';

const stringClaim = (payload: JWTPayload, name: string) =>
  typeof payload[name] === 'string' && (payload[name] as string).trim() ? (payload[name] as string).trim() : undefined;

// Providers have sent email_verified both as a boolean and as the string "true".
const emailVerified = (payload: JWTPayload) => payload.email_verified === true || payload.email_verified === 'true';

/**
 * Creates an account, or, when another sign-in created the same email a moment earlier,
 * returns that one: the unique index decides, not a racy pre-check.
 */
async function createOrFind(
  store: Store,
  fields: Parameters<typeof insertUser>[1],
  method: 'google' | 'apple',
): Promise<IdentitySignIn> {
  try {
    const user = await insertUser(store, fields);
    await recordSignUp(store, user._id, method);
    return { user, isNewUser: true };
  } catch (err) {
    const existing =
      err instanceof ApiError && err.status === 409 ? await store.users.findOne({ email: fields.email }) : null;
    if (!existing) throw err;
    return { user: existing, isNewUser: false };
  }
}

/** Google: the account is keyed by verified email; later sign-ins refresh name and picture. */
export async function signInWithGoogle(store: Store, payload: JWTPayload): Promise<IdentitySignIn> {
  const email = stringClaim(payload, 'email')?.toLowerCase();
  if (!email || !emailVerified(payload)) {
    throw new ApiError(401, 'Invalid Google token: the account has no verified email address.');
  }
  const name = stringClaim(payload, 'name');
  const picture = stringClaim(payload, 'picture');
  const existing = await store.users.findOne({ email });
  if (!existing) {
    return createOrFind(
      store,
      { name: name ?? email.split('@')[0]!, email, imageUri: picture, googleUserId: payload.sub },
      'google',
    );
  }
  const user = await updateUser(store, existing._id, {
    ...(name ? { name } : {}),
    ...(picture ? { imageUri: picture } : {}),
  });
  return { user, isNewUser: false };
}

/**
 * Apple: the subject is the stable key (returning sign-ins may carry no email); a first
 * Apple sign-in links to an existing account with the same email, else creates one.
 */
export async function signInWithApple(
  store: Store,
  payload: JWTPayload,
  suppliedName: string | undefined,
): Promise<IdentitySignIn> {
  const appleUserId = payload.sub!;
  const linked = await store.users.findOne({ appleUserId });
  if (linked) {
    const user =
      suppliedName && linked.name === APPLE_FALLBACK_NAME
        ? await updateUser(store, linked._id, { name: suppliedName })
        : linked;
    return { user, isNewUser: false };
  }
  const email = stringClaim(payload, 'email')?.toLowerCase();
  if (!email) {
    throw new ApiError(400, 'Apple did not share an email address and no account is linked to this Apple ID.');
  }
  // Linking by an unverified address would hand its account to whoever typed it in.
  if (!emailVerified(payload)) {
    throw new ApiError(401, 'Invalid Apple token: the email address is not verified.');
  }
  const byEmail = await store.users.findOne({ email });
  if (byEmail) {
    const user = await store.users.findOneAndUpdate(
      { _id: byEmail._id },
      { $set: { appleUserId, updatedAt: new Date() } },
      { returnDocument: 'after' },
    );
    return { user: user ?? byEmail, isNewUser: false };
  }
  return createOrFind(store, { name: suppliedName ?? APPLE_FALLBACK_NAME, email, appleUserId }, 'apple');
}
