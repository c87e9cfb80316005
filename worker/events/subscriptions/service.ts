import { ObjectId } from 'mongodb';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { readCount, readOne } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { EventSubscriptionDoc } from '../documents';
import { readEventSubscription } from '../stored-subscription';
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

/** The rows of one page, as stored (toReadPage reads them); owner ids match in either stored form. */
export function listSubscriptions(store: Store, userId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.eventSubscriptions
    .find({ userId: anyIdOf(userId), ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** The rider's subscription as stored (either id form), or null. */
const findStored = (store: Store, userId: ObjectId, id: ObjectId) =>
  store.eventSubscriptions.findOne({ _id: anyIdOf(id), userId: anyIdOf(userId) });

/** The rider's subscription, read; one that cannot be read answers as absent (with its event line). */
export async function findSubscription(store: Store, userId: ObjectId, id: ObjectId) {
  return readOne('eventSubscriptions', await findStored(store, userId, id), readEventSubscription) ?? null;
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
    const stored = await findStored(store, userId, id);
    const current = readOne('eventSubscriptions', stored, readEventSubscription);
    if (!stored || !current) return 'not-found';
    const merged = { ...current, ...storedFields(input) };
    if (!hasCriterion(merged)) return 'no-criterion';
    // The compare-and-set holds on the version exactly as stored (older code left it absent, null or as text);
    // the write stores every field as read, so the document is readable in the service's own shape afterwards.
    const { _id, userId: _, version: __, ...rest } = merged;
    const set = {
      ...rest,
      matchKeys: subscriptionKeys(merged),
      version: (readCount(stored.version) ?? 0) + 1,
      updatedAt: new Date(),
    };
    const written = await store.eventSubscriptions.findOneAndUpdate(
      {
        _id: stored._id,
        userId: stored.userId,
        version: stored.version === undefined ? { $exists: false } : stored.version,
      },
      { $set: set },
      { returnDocument: 'after' },
    );
    const read = readOne('eventSubscriptions', written, readEventSubscription);
    if (read) return read;
  }
  return 'conflict';
}

/** Deletes the subscription and gives back its slot; its open digest is dropped by the next run (subscription-deleted). */
export async function deleteSubscription(store: Store, userId: ObjectId, id: ObjectId): Promise<boolean> {
  const { deletedCount } = await store.eventSubscriptions.deleteOne({ _id: anyIdOf(id), userId: anyIdOf(userId) });
  if (!deletedCount) return false;
  await store.users.updateOne({ _id: userId }, { $inc: { eventSubscriptionCount: -1 } });
  return true;
}
