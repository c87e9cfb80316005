import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { claimsFor, signSessionToken } from '../auth/token';
import { requireSetting } from '../config';
import type { UserDoc } from '../db/documents';
import { isDuplicateKey } from '../db/errors';
import type { Store } from '../db/store';
import type { AppEnv } from '../env';
import { ApiError } from '../http/errors';
import { userView } from './views';

export const EMAIL_TAKEN = 'An account with this email already exists.';

export async function findUser(store: Store, id: string): Promise<UserDoc | null> {
  return store.users.findOne({ _id: new ObjectId(id) });
}

export async function requireUser(store: Store, id: string): Promise<UserDoc> {
  const user = await findUser(store, id);
  if (!user) throw new ApiError(404, 'Account not found.');
  return user;
}

/** Inserts a new account; a taken email is a 409, decided by the unique index, not a pre-check. */
export async function insertUser(
  store: Store,
  fields: Omit<UserDoc, '_id' | 'createdAt' | 'updatedAt' | 'role'>,
): Promise<UserDoc> {
  const now = new Date();
  const user: UserDoc = { _id: new ObjectId(), ...fields, role: null, createdAt: now, updatedAt: now };
  try {
    await store.users.insertOne(user);
  } catch (err) {
    if (isDuplicateKey(err)) throw new ApiError(409, EMAIL_TAKEN);
    throw err;
  }
  return user;
}

/** Applies a partial update and returns the stored result. */
export async function updateUser(
  store: Store,
  id: ObjectId,
  changes: Partial<Pick<UserDoc, 'name' | 'imageUri' | 'email' | 'role' | 'isBot' | 'analyticsExcluded'>>,
): Promise<UserDoc> {
  try {
    const updated = await store.users.findOneAndUpdate(
      { _id: id },
      { $set: { ...changes, updatedAt: new Date() } },
      { returnDocument: 'after' },
    );
    if (!updated) throw new ApiError(404, 'Account not found.');
    return updated;
  } catch (err) {
    if (isDuplicateKey(err)) throw new ApiError(409, EMAIL_TAKEN);
    throw err;
  }
}

/**
 * Answers a successful sign-in or registration the way Live clients read it: the token in
 * the body and in the `x-auth-token` header.
 */
export async function sessionResponse<E extends Record<string, unknown>>(
  c: Context<AppEnv>,
  user: UserDoc,
  status: 200 | 201,
  extra?: E,
) {
  const token = await signSessionToken(claimsFor(user), requireSetting(c.env, 'JWT_SECRET'));
  c.header('x-auth-token', token);
  return c.json({ token, user: userView(user), ...(extra ?? ({} as E)) }, status);
}
