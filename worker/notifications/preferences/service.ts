import type { Filter, ObjectId } from 'mongodb';
import type { UserDoc } from '../../accounts/documents';
import { byAccountId } from '../../accounts/users/service';
import type { Store } from '../../platform/db/store';
import { idForms, readId } from '../../platform/db/stored-values';
import type { NotificationPreferences, StoredNotificationPreferences } from '../documents';
import { liveTokensOf } from '../push-tokens/service';
import { deviceTimeZone, withDefaults } from './defaults';
import { readStoredPreferences as readPreferences } from './read-preferences';

/** The stored (partial) preferences of many users in one query, by 24-hex user id; users who set none are absent. */
export async function readStoredPreferences(
  store: Store,
  userIds: ObjectId[],
): Promise<Map<string, StoredNotificationPreferences>> {
  const users = await store.users
    .find({ _id: { $in: userIds.flatMap(idForms) } } as Filter<UserDoc>, { projection: { notificationPreferences: 1 } })
    .toArray();
  return new Map(
    users.flatMap((user) => {
      const id = readId(user._id);
      const preferences = readPreferences(user.notificationPreferences);
      return id && preferences ? [[id.toHexString(), preferences]] : [];
    }),
  );
}

/** The user's preferences with the defaults filled in, or 'not-found' when the account is gone. */
export async function findPreferences(store: Store, userId: ObjectId): Promise<NotificationPreferences | 'not-found'> {
  const [user, tokens] = await Promise.all([
    store.users.findOne(byAccountId(userId), { projection: { notificationPreferences: 1 } }),
    liveTokensOf(store, [userId]),
  ]);
  if (!user) return 'not-found';
  return withDefaults(readPreferences(user.notificationPreferences), deviceTimeZone(tokens));
}

/** A partial update as the PATCH body carries it: any subset of the groups, each any subset of its fields. */
export type PreferencesPatch = {
  [G in keyof StoredNotificationPreferences]?: StoredNotificationPreferences[G];
};

/**
 * Merges the patch into the stored preferences in one atomic update: each given leaf becomes one dotted
 * `$set`, so concurrent patches of different fields never overwrite each other.
 */
export async function updatePreferences(
  store: Store,
  userId: ObjectId,
  patch: Omit<PreferencesPatch, 'updatedAt'>,
): Promise<NotificationPreferences | 'not-found'> {
  const now = new Date();
  const set: Record<string, unknown> = { 'notificationPreferences.updatedAt': now };
  // softAsk nests one level deeper (platform, then field): every leaf, at any depth, is its own dotted $set.
  const setLeaves = (path: string, value: unknown) => {
    if (value === undefined) return;
    if (value && typeof value === 'object' && !(value instanceof Date)) {
      for (const [key, inner] of Object.entries(value)) setLeaves(`${path}.${key}`, inner);
    } else set[path] = value;
  };
  setLeaves('notificationPreferences', patch);
  const [user, tokens] = await Promise.all([setPreferences(store, userId, set), liveTokensOf(store, [userId])]);
  if (!user) return 'not-found';
  return withDefaults(readPreferences(user.notificationPreferences), deviceTimeZone(tokens));
}

/**
 * The paths a dotted `$set` of these leaves writes inside (`notificationPreferences`, `…softAsk`, `…softAsk.ios`):
 * each must be an object or missing, or the write fails.
 */
const parentsOf = (leaves: string[]) => [
  ...new Set(
    leaves.flatMap((leaf) =>
      leaf
        .split('.')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
    ),
  ),
];

/**
 * The dotted `$set` of the changed leaves, on an account whose preferences can hold them. Where older code stored
 * the preferences or a group of them as something other than an object, no leaf can be set inside it: the stored
 * preferences are first replaced by what of them reads, only if still as read (so a concurrent change is never
 * overwritten), and the set is tried again.
 */
async function setPreferences(store: Store, userId: ObjectId, set: Record<string, unknown>, retried = false) {
  const holdsLeaves = parentsOf(Object.keys(set)).map((path) => ({
    $or: [{ [path]: { $exists: false } }, { [path]: { $type: 'object' } }],
  }));
  const options = { returnDocument: 'after', projection: { notificationPreferences: 1 } } as const;
  const updated = await store.users.findOneAndUpdate(
    { ...byAccountId(userId), $and: holdsLeaves } as Filter<UserDoc>,
    { $set: set },
    options,
  );
  if (updated || retried) return updated;
  const stored = await store.users.findOne(byAccountId(userId), { projection: { notificationPreferences: 1 } });
  if (!stored) return null;
  await store.users.updateOne(
    { ...byAccountId(userId), notificationPreferences: stored.notificationPreferences },
    { $set: { notificationPreferences: readPreferences(stored.notificationPreferences) ?? {} } },
  );
  return setPreferences(store, userId, set, true);
}
