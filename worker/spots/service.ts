import { type Document, type Filter, ObjectId } from 'mongodb';
import type { SpotDoc } from '../db/documents';
import type { Store } from '../db/store';
import { LIMITS } from '../limits';
import type { Position } from './position';
import type { NewSpot, SpotChanges, SpotSearch } from './schema';

// Every query on spots. Outcomes that are not a spot come back as values, not HTTP errors.

export interface Caller {
  userId: ObjectId;
  isAdmin: boolean;
}

/** A search hit; `distanceMeters` comes from the database's $geoNear on a near search. */
export type FoundSpot = SpotDoc & { distanceMeters?: number };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const toPoint = ({ lat, lng }: { lat: number; lng: number }) => ({
  type: 'Point' as const,
  coordinates: [lng, lat] as [number, number],
});

export const findSpot = (store: Store, id: ObjectId) => store.spots.findOne({ _id: id });

export async function spotExists(store: Store, id: ObjectId): Promise<boolean> {
  return (await store.spots.countDocuments({ _id: id }, { limit: 1 })) > 0;
}

export async function insertSpot(store: Store, createdBy: ObjectId, fields: NewSpot): Promise<SpotDoc> {
  const now = new Date();
  const { location, ...rest } = fields;
  const spot: SpotDoc = {
    _id: new ObjectId(),
    ...rest,
    location: toPoint(location),
    createdBy,
    createdAt: now,
    updatedAt: now,
  };
  await store.spots.insertOne(spot);
  return spot;
}

function searchFilter(query: SpotSearch): Filter<SpotDoc> {
  const filter: Filter<SpotDoc> = {};
  if (query.sport) filter.sports = query.sport;
  if (query.q) {
    const pattern = new RegExp(escapeRegex(query.q), 'i');
    filter.$or = [{ name: pattern }, { city: pattern }];
  }
  return filter;
}

/** Spots matching the search, `limit + 1` rows for the pager: nearest first with `near`, else newest first. */
export async function searchSpots(store: Store, query: SpotSearch): Promise<FoundSpot[]> {
  const filter = searchFilter(query);
  if (!query.near) {
    if (query.cursor) filter._id = { $lt: query.cursor.id };
    return store.spots
      .find(filter)
      .sort({ _id: -1 })
      .limit(query.limit + 1)
      .toArray();
  }
  const radiusKm = query.radiusKm ?? LIMITS.spotSearchRadiusKm.default;
  const after = query.cursor;
  const pipeline: Document[] = [
    {
      $geoNear: {
        near: toPoint(query.near),
        key: 'location',
        distanceField: 'distanceMeters',
        spherical: true,
        maxDistance: radiusKm * 1000,
        ...(after ? { minDistance: after.n } : {}),
        query: filter,
      },
    },
    // minDistance already dropped nearer spots; of those at exactly the cursor's distance, only later ids remain.
    ...(after ? [{ $match: { $or: [{ distanceMeters: { $gt: after.n } }, { _id: { $gt: after.id } }] } }] : []),
    { $sort: { distanceMeters: 1, _id: 1 } },
    { $limit: query.limit + 1 },
  ];
  return store.spots.aggregate<FoundSpot>(pipeline).toArray();
}

/** The next page's position: the last row's distance on a near search, its id otherwise. */
export const positionOf = (spot: FoundSpot): Position => ({ n: spot.distanceMeters ?? 0, id: spot._id });

function changeUpdate(changes: SpotChanges): Document {
  const set: Document = { updatedAt: new Date() };
  const unset: Document = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) unset[field] = '';
    else set[field] = field === 'location' ? toPoint(value as { lat: number; lng: number }) : value;
  }
  return Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set };
}

/** Who may change a spot: its creator or an admin, decided inside the write itself. */
const editable = (id: ObjectId, caller: Caller): Filter<SpotDoc> =>
  caller.isAdmin ? { _id: id } : { _id: id, createdBy: caller.userId };

/** After a guarded write matched nothing: was the spot missing, or someone else's? */
async function whyUnchanged(store: Store, id: ObjectId): Promise<'not-found' | 'not-yours'> {
  return (await store.spots.countDocuments({ _id: id }, { limit: 1 })) ? 'not-yours' : 'not-found';
}

export async function updateSpot(
  store: Store,
  id: ObjectId,
  caller: Caller,
  changes: SpotChanges,
): Promise<SpotDoc | 'not-found' | 'not-yours'> {
  const updated = await store.spots.findOneAndUpdate(editable(id, caller), changeUpdate(changes), {
    returnDocument: 'after',
  });
  return updated ?? whyUnchanged(store, id);
}

/** Deletes the spot and leaves a tombstone, so the extension's sync removes it too. */
export async function deleteSpot(
  store: Store,
  id: ObjectId,
  caller: Caller,
): Promise<'deleted' | 'not-found' | 'not-yours'> {
  const { deletedCount } = await store.spots.deleteOne(editable(id, caller));
  if (!deletedCount) return whyUnchanged(store, id);
  const now = new Date();
  // A deleted spot leaves every rider's spot lists (its reviews and landings stay, unreachable).
  await store.spotlists.updateMany({ spotIds: id }, { $pull: { spotIds: id }, $set: { updatedAt: now } });
  await store.spot_tombstones.updateOne(
    { _id: id },
    { $set: { deletedAt: now, updatedAt: now }, $setOnInsert: { createdAt: now } },
    { upsert: true },
  );
  return 'deleted';
}
