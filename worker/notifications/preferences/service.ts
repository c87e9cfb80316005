import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { NotificationPreferences, StoredNotificationPreferences } from '../documents';
import { liveTokensOf } from '../push-tokens/service';
import { deviceTimeZone, withDefaults } from './defaults';

/** The stored (partial) preferences of many users in one query, by 24-hex user id; users who set none are absent. */
export async function readStoredPreferences(
  store: Store,
  userIds: ObjectId[],
): Promise<Map<string, StoredNotificationPreferences>> {
  const users = await store.users
    .find({ _id: { $in: userIds } }, { projection: { notificationPreferences: 1 } })
    .toArray();
  return new Map(
    users.flatMap((user) =>
      user.notificationPreferences ? [[user._id.toHexString(), user.notificationPreferences]] : [],
    ),
  );
}

/** The user's preferences with the defaults filled in, or 'not-found' when the account is gone. */
export async function findPreferences(store: Store, userId: ObjectId): Promise<NotificationPreferences | 'not-found'> {
  const [user, tokens] = await Promise.all([
    store.users.findOne({ _id: userId }, { projection: { notificationPreferences: 1 } }),
    liveTokensOf(store, [userId]),
  ]);
  if (!user) return 'not-found';
  return withDefaults(user.notificationPreferences, deviceTimeZone(tokens));
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
  const [user, tokens] = await Promise.all([
    store.users.findOneAndUpdate(
      { _id: userId },
      { $set: set },
      { returnDocument: 'after', projection: { notificationPreferences: 1 } },
    ),
    liveTokensOf(store, [userId]),
  ]);
  if (!user) return 'not-found';
  return withDefaults(user.notificationPreferences, deviceTimeZone(tokens));
}
