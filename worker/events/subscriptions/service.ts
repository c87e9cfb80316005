import { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { EventSubscriptionDoc } from '../documents';
import { normalized, type SubscriptionCriteria, subscriptionKeys } from './match-keys';
import type { SubscriptionInput } from './schema';

// Every query on event subscriptions. A rider holds at most
// LIMITS.eventNotifications.subscriptionsPerUser; the count lives on the user and moves atomically.

type Stored = Pick<EventSubscriptionDoc, 'name' | keyof SubscriptionCriteria>;

const unique = (values: string[]) => [...new Set(values)];

/** The stored form of the given fields (lists de-duplicated, free text folded, the place as GeoJSON). */
export function storedFields(input: SubscriptionInput): Partial<Stored> {
  const out: Partial<Stored> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.sports) out.sports = unique(input.sports);
  if (input.disciplines) out.disciplines = unique(input.disciplines.map(normalized));
  if (input.eventKinds) out.eventKinds = unique(input.eventKinds.map(normalized));
  if (input.intents) out.intents = unique(input.intents);
  if (input.level) out.level = unique(input.level);
  if (input.place !== undefined)
    out.place = input.place && {
      location: { type: 'Point', coordinates: [input.place.lng, input.place.lat] },
      radiusKm: input.place.radiusKm,
      label: input.place.label ?? null,
    };
  if (input.organizerId !== undefined) out.organizerId = input.organizerId ? new ObjectId(input.organizerId) : null;
  return out;
}

const EMPTY: Stored = {
  name: null,
  sports: [],
  disciplines: [],
  eventKinds: [],
  intents: [],
  level: [],
  place: null,
  organizerId: null,
};

/** What a new subscription stores: the given criteria, every other one empty. */
export const newSubscriptionFields = (input: SubscriptionInput): Stored => ({ ...EMPTY, ...storedFields(input) });

export const hasCriterion = (s: SubscriptionCriteria) =>
  !!(
    s.sports.length ||
    s.disciplines.length ||
    s.eventKinds.length ||
    s.intents.length ||
    s.level.length ||
    s.place ||
    s.organizerId
  );

export async function organizerExists(store: Store, id: ObjectId): Promise<boolean> {
  return !!(await store.organizers.findOne({ _id: id }, { projection: { _id: 1 } }));
}

/**
 * Stores a new subscription if the rider is below the limit: the count on the user moves first, in one
 * conditional `$inc` (concurrent creates cannot overshoot), and is given back if the insert fails.
 */
export async function createSubscription(
  store: Store,
  userId: ObjectId,
  input: SubscriptionInput,
): Promise<EventSubscriptionDoc | 'limit'> {
  const max = LIMITS.eventNotifications.subscriptionsPerUser;
  const slot = await store.users.updateOne(
    { _id: userId, eventSubscriptionCount: { $not: { $gte: max } } },
    { $inc: { eventSubscriptionCount: 1 } },
  );
  if (!slot.modifiedCount) return 'limit';
  const now = new Date();
  const fields = newSubscriptionFields(input);
  const doc: EventSubscriptionDoc = {
    _id: new ObjectId(),
    userId,
    ...fields,
    matchKeys: subscriptionKeys(fields),
    lastDigestAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await store.eventSubscriptions.insertOne({ ...doc, version: 1 });
  } catch (err) {
    await store.users.updateOne({ _id: userId }, { $inc: { eventSubscriptionCount: -1 } });
    throw err;
  }
  return doc;
}

export function listSubscriptions(store: Store, userId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.eventSubscriptions
    .find({ userId, ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export function findSubscription(store: Store, userId: ObjectId, id: ObjectId) {
  return store.eventSubscriptions.findOne({ _id: id, userId });
}

/**
 * Applies a partial change. The merged result is checked (one criterion must remain) and written only
 * if the subscription is still the version read (compare-and-set on `version`), with its match keys
 * recomputed; a concurrent change makes it read and merge again.
 */
export async function changeSubscription(
  store: Store,
  userId: ObjectId,
  id: ObjectId,
  input: SubscriptionInput,
): Promise<EventSubscriptionDoc | 'not-found' | 'no-criterion' | 'conflict'> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await findSubscription(store, userId, id);
    if (!current) return 'not-found';
    const merged = { ...current, ...storedFields(input) };
    if (!hasCriterion(merged)) return 'no-criterion';
    const version = current.version ?? 0;
    const { _id, userId: _, version: __, ...rest } = merged;
    const set = { ...rest, matchKeys: subscriptionKeys(merged), updatedAt: new Date() };
    const written = await store.eventSubscriptions.findOneAndUpdate(
      { _id: id, userId, ...(version ? { version } : { version: { $exists: false } }) },
      { $set: set, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    if (written) return written;
  }
  return 'conflict';
}

/** Deletes the subscription and gives back its slot; its open digest is dropped by the next run (subscription-deleted). */
export async function deleteSubscription(store: Store, userId: ObjectId, id: ObjectId): Promise<boolean> {
  const { deletedCount } = await store.eventSubscriptions.deleteOne({ _id: id, userId });
  if (!deletedCount) return false;
  await store.users.updateOne({ _id: userId }, { $inc: { eventSubscriptionCount: -1 } });
  return true;
}
