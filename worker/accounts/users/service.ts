import { type Filter, ObjectId, type UpdateFilter } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import { duplicateField, onDuplicateKey } from '../../platform/db/errors';
import { type Cleanup, erasePersonalData, type ObjectStore } from '../../platform/db/personal-data';
import type { Store } from '../../platform/db/store';
import type { UserDoc } from '../documents';
import { withNameWords } from './name-words';

// Every query on accounts. Outcomes that are not an account come back as values, not HTTP errors.

export type NewUser = Omit<UserDoc, '_id' | 'createdAt' | 'updatedAt' | 'role'>;
export type UserChanges = Partial<
  Pick<UserDoc, 'name' | 'imageUri' | 'email' | 'role' | 'isBot' | 'analyticsExcluded' | 'appleUserId' | 'googleUserId'>
>;

export const findUserById = (store: Store, id: ObjectId) => store.users.findOne({ _id: id });
export const findUserByEmail = (store: Store, email: string) => store.users.findOne({ email });
export const findUserByAppleId = (store: Store, appleUserId: string) => store.users.findOne({ appleUserId });

/** The public fields of these accounts, keyed by hex id; accounts since deleted are absent. */
export async function publicUsers(
  store: Store,
  ids: ObjectId[],
): Promise<Map<string, Pick<UserDoc, '_id' | 'name' | 'imageUri'>>> {
  const unique = [...new Map(ids.map((id) => [id.toHexString(), id])).values()];
  const users = await store.users.find({ _id: { $in: unique } }, { projection: { name: 1, imageUri: 1 } }).toArray();
  return new Map(users.map((user) => [user._id.toHexString(), user]));
}

export async function accountExists(store: Store, id: ObjectId): Promise<boolean> {
  return (await store.users.countDocuments({ _id: id }, { limit: 1 })) > 0;
}

/** Which unique account field another account already holds; without keyValue, the email (the usual one). */
const takenField = (err: unknown): 'email-taken' | 'apple-id-taken' =>
  duplicateField(err) === 'appleUserId' ? 'apple-id-taken' : 'email-taken';

/** Creates an account; a taken email or Apple ID is decided by the unique indexes, not a racy pre-check. */
export async function insertUser(store: Store, fields: NewUser): Promise<UserDoc | 'email-taken' | 'apple-id-taken'> {
  const now = new Date();
  const user: UserDoc = { _id: new ObjectId(), ...withNameWords(fields), role: null, createdAt: now, updatedAt: now };
  return onDuplicateKey(async () => {
    await store.users.insertOne(user);
    return user;
  }, takenField);
}

/**
 * Every account update: one atomic findOneAndUpdate on `filter`, the stored result, `unmatched` when no account
 * matched the filter, or the unique field another account already holds.
 */
function updateAccountWhere<U extends string>(
  store: Store,
  filter: Filter<UserDoc>,
  update: UpdateFilter<UserDoc>,
  unmatched: U,
): Promise<UserDoc | U | 'email-taken' | 'apple-id-taken'> {
  return onDuplicateKey(
    async () => (await store.users.findOneAndUpdate(filter, update, { returnDocument: 'after' })) ?? unmatched,
    takenField,
  );
}

/** Applies a partial update and returns the stored result. */
export const updateUser = (store: Store, id: ObjectId, changes: UserChanges) =>
  updateAccountWhere(store, { _id: id }, { $set: { ...withNameWords(changes), updatedAt: new Date() } }, 'not-found');

/**
 * Moves the account to a new, unproved address, only if it still has the address the caller checked, so two
 * changes racing cannot both pass on the same check; 'changed-meanwhile' otherwise.
 */
export const changeAddress = (store: Store, id: ObjectId, from: string, changes: UserChanges & { email: string }) =>
  updateAccountWhere(
    store,
    { _id: id, email: from },
    { $set: { ...withNameWords(changes), emailVerified: false, updatedAt: new Date() } },
    'changed-meanwhile',
  );

/**
 * An identity provider proved that the account's unproved address is its owner's: the account becomes theirs.
 * The password goes and the token version rises, so whoever registered the address before loses every way in;
 * only an account still unproved is taken ('already-proved' when another sign-in proved it meanwhile).
 */
export const takeOverUnprovedAccount = (store: Store, id: ObjectId, changes: UserChanges) =>
  updateAccountWhere(
    store,
    { _id: id, emailVerified: { $ne: true } },
    {
      $set: { ...withNameWords(changes), emailVerified: true, updatedAt: new Date() },
      $unset: { password: '' },
      $inc: { tokenVersion: 1 },
    },
    'already-proved',
  );

/** Accounts whose name or email contains `q`, newest first, `limit + 1` rows for the pager. */
export function searchUsers(store: Store, query: { q?: string; cursor?: ObjectId; limit: number }): Promise<UserDoc[]> {
  const filter: Filter<UserDoc> = {};
  if (query.q) {
    const pattern = containsPattern(query.q);
    filter.$or = [{ name: pattern }, { email: pattern }];
  }
  if (query.cursor) filter._id = { $lt: query.cursor };
  return store.users
    .find(filter)
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .toArray();
}

/**
 * Removes the account and everything personal to it, by the cleanups every domain declares (composed in
 * worker/data.ts and handed in). The account goes last, so a failure half-way can be retried.
 */
export async function deleteAccount(
  store: Store,
  objects: ObjectStore,
  userId: ObjectId,
  cleanups: readonly Cleanup[],
): Promise<void> {
  await erasePersonalData(store, objects, userId, cleanups);
  await store.users.deleteOne({ _id: userId });
}

/**
 * Replaces the password hash only if it is still the one the caller checked (undefined: none yet),
 * so two changes racing cannot both win; the account after, or null when it changed meanwhile or is gone.
 */
export const replacePassword = (store: Store, id: ObjectId, expected: string | undefined, hash: string) =>
  store.users.findOneAndUpdate(
    { _id: id, password: expected ?? { $exists: false } },
    // One update ends every token signed before the change with the old password (docs/sessions.md).
    { $set: { password: hash, updatedAt: new Date() }, $inc: { tokenVersion: 1 } },
    { returnDocument: 'after' },
  );

/** Ends every token of the account signed so far (sign-out everywhere); the account as stored after, or null. */
export const revokeAccountTokens = (store: Store, id: ObjectId) =>
  store.users.findOneAndUpdate(
    { _id: id },
    { $inc: { tokenVersion: 1 }, $set: { updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
