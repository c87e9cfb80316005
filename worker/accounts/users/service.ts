import { type Filter, ObjectId, type UpdateFilter } from 'mongodb';
import { containsPattern, escapeRegex } from '../../platform/db/contains-pattern';
import { distinctIds } from '../../platform/db/distinct-ids';
import { duplicateField, onDuplicateKey } from '../../platform/db/errors';
import { type Cleanup, erasePersonalData, type ObjectStore } from '../../platform/db/personal-data';
import type { Store } from '../../platform/db/store';
import { idForms, readEach, readIds } from '../../platform/db/stored-values';
import { logEvent } from '../../platform/ops/log-line';
import type { UserDoc } from '../documents';
import { withNameWords } from './name-words';
import { readPublicUser, readUser } from './read-user';

// Every query on accounts. Outcomes that are not an account come back as values, not HTTP errors.

export type NewUser = Omit<UserDoc, '_id' | 'createdAt' | 'updatedAt' | 'role'>;
export type UserChanges = Partial<
  Pick<UserDoc, 'name' | 'imageUri' | 'email' | 'role' | 'isBot' | 'analyticsExcluded' | 'appleUserId' | 'googleUserId'>
>;

/** The account `id` names, whichever form its `_id` was stored in (older code stored some as hex strings). */
export const byAccountId = (id: ObjectId) => ({ _id: { $in: idForms(id) } }) as Filter<UserDoc>;

const readAccount = (doc: UserDoc | null): UserDoc | null => (doc && readUser(doc)) ?? null;

/** Values set by an update pipeline, taken as they are: a text starting with `$` (a bcrypt hash) is no field path there. */
const literally = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, { $literal: value }]));

/**
 * The token version one above the stored one, in an update pipeline: `$inc` fails on a version older code stored
 * as text, while this reads it as the access checks do (unreadable as 0).
 */
const nextTokenVersion = {
  $add: [{ $convert: { input: '$tokenVersion', to: 'int', onError: 0, onNull: 0 } }, 1],
};

export const findUserById = async (store: Store, id: ObjectId) =>
  readAccount(await store.users.findOne(byAccountId(id)));
export const findUserByAppleId = async (store: Store, appleUserId: string) =>
  readAccount(await store.users.findOne({ appleUserId }));

/**
 * An address as older code may have stored it: any case, with surrounding spaces. Addresses are stored trimmed
 * and lower-cased since registration normalised them, so only accounts older than that match this and not the exact address.
 */
const storedAddressPattern = (email: string) => ({ $regex: `^\\s*${escapeRegex(email)}\\s*$`, $options: 'i' });

/**
 * The account with this (normalised) address: the one stored exactly so, else the one older code stored in
 * other case or with spaces. When several older accounts share the address that way, none is answered: which
 * rider typed it cannot be told, so none signs in by it until an operator settles them (migrations-notes/legacy-documents-accounts.md).
 */
export async function findUserByEmail(store: Store, email: string): Promise<UserDoc | null> {
  const exact = await store.users.findOne({ email });
  if (exact) return readAccount(exact);
  const variants = await store.users
    .find({ email: storedAddressPattern(email) })
    .limit(2)
    .toArray();
  if (variants.length > 1)
    logEvent('accounts.email.ambiguous', { userIds: variants.map((user) => String(user._id)).join(',') });
  return variants.length === 1 ? readAccount(variants[0]!) : null;
}

/**
 * Whether an account other than `except` holds this address in any stored form: the unique index guards the
 * normalised form; this guards the forms older code stored, which a new account or a changed address must not collide with.
 */
async function addressHeldElsewhere(store: Store, email: string, except?: ObjectId): Promise<boolean> {
  const filter: Filter<UserDoc> = { email: storedAddressPattern(email) };
  if (except) filter._id = { $nin: idForms(except) } as Filter<UserDoc>['_id'];
  return (await store.users.countDocuments(filter, { limit: 1 })) > 0;
}

/** The public fields of these accounts, keyed by hex id; accounts since deleted, or ids that read as none, are absent. */
export async function publicUsers(
  store: Store,
  ids: readonly unknown[],
): Promise<Map<string, Pick<UserDoc, '_id' | 'name' | 'imageUri'>>> {
  const unique = distinctIds(readIds(ids));
  if (!unique.length) return new Map();
  const users = await store.users
    .find({ _id: { $in: unique.flatMap(idForms) } } as Filter<UserDoc>, { projection: { name: 1, imageUri: 1 } })
    .toArray();
  return new Map(readEach('users', users, readPublicUser).map((user) => [user._id.toHexString(), user]));
}

export async function accountExists(store: Store, id: ObjectId): Promise<boolean> {
  return (await store.users.countDocuments(byAccountId(id), { limit: 1 })) > 0;
}

/** Which unique account field another account already holds; without keyValue, the email (the usual one). */
const takenField = (err: unknown): 'email-taken' | 'apple-id-taken' =>
  duplicateField(err) === 'appleUserId' ? 'apple-id-taken' : 'email-taken';

/** Creates an account; a taken email or Apple ID is decided by the unique indexes, not a racy pre-check. */
export async function insertUser(store: Store, fields: NewUser): Promise<UserDoc | 'email-taken' | 'apple-id-taken'> {
  if (await addressHeldElsewhere(store, fields.email)) return 'email-taken';
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
    async () =>
      readAccount(await store.users.findOneAndUpdate(filter, update, { returnDocument: 'after' })) ?? unmatched,
    takenField,
  );
}

/** Applies a partial update and returns the stored result. */
export const updateUser = (store: Store, id: ObjectId, changes: UserChanges) =>
  updateAccountWhere(
    store,
    byAccountId(id),
    { $set: { ...withNameWords(changes), updatedAt: new Date() } },
    'not-found',
  );

/**
 * Moves the account to a new, unproved address, only if it still has the address the caller checked, so two
 * changes racing cannot both pass on the same check; 'changed-meanwhile' otherwise.
 */
export async function changeAddress(
  store: Store,
  id: ObjectId,
  from: string,
  changes: UserChanges & { email: string },
): Promise<UserDoc | 'changed-meanwhile' | 'email-taken' | 'apple-id-taken'> {
  if (await addressHeldElsewhere(store, changes.email, id)) return 'email-taken';
  return updateAccountWhere(
    store,
    { ...byAccountId(id), email: from },
    { $set: { ...withNameWords(changes), emailVerified: false, updatedAt: new Date() } },
    'changed-meanwhile',
  );
}

/**
 * An identity provider proved that the account's unproved address is its owner's: the account becomes theirs.
 * The password goes and the token version rises, so whoever registered the address before loses every way in;
 * only an account still unproved is taken ('already-proved' when another sign-in proved it meanwhile).
 */
export const takeOverUnprovedAccount = (store: Store, id: ObjectId, changes: UserChanges) =>
  updateAccountWhere(
    store,
    { ...byAccountId(id), emailVerified: { $ne: true } },
    [
      {
        $set: {
          ...literally({ ...withNameWords(changes), emailVerified: true, updatedAt: new Date() }),
          tokenVersion: nextTokenVersion,
        },
      },
      { $unset: 'password' },
    ],
    'already-proved',
  );

/** Accounts whose name or email contains `q`, newest first, `limit + 1` rows as stored for the pager (readUser reads each). */
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
  await store.users.deleteOne(byAccountId(userId));
}

/**
 * Replaces the password hash only if it is still the one the caller checked (undefined: none yet),
 * so two changes racing cannot both win; the account after, or null when it changed meanwhile or is gone.
 */
export const replacePassword = async (store: Store, id: ObjectId, expected: string | undefined, hash: string) =>
  readAccount(
    await store.users.findOneAndUpdate(
      // No password yet: none stored, or one older code left empty.
      { ...byAccountId(id), password: expected ?? ({ $in: [null, ''] } as Filter<UserDoc>['password']) },
      // One update ends every token signed before the change with the old password (docs/sessions.md).
      [{ $set: { ...literally({ password: hash, updatedAt: new Date() }), tokenVersion: nextTokenVersion } }],
      { returnDocument: 'after' },
    ),
  );

/** Ends every token of the account signed so far (sign-out everywhere); the account as stored after, or null. */
export const revokeAccountTokens = async (store: Store, id: ObjectId) =>
  readAccount(
    await store.users.findOneAndUpdate(
      byAccountId(id),
      [{ $set: { ...literally({ updatedAt: new Date() }), tokenVersion: nextTokenVersion } }],
      { returnDocument: 'after' },
    ),
  );
