import { type Document, type Filter, ObjectId } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import type { Store } from '../../platform/db/store';
import { idForms, readDate, readId, readNumber, readOne } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { Caller } from '../../platform/tokens/service';
import type { SpotDoc } from '../documents';
import { PLACE_FIELDS, placeMismatches } from '../stays/normalise';
import type { Position, SyncCursor } from './position';
import { readSpot, type Spot } from './reader';
import type { NewSpot, SpotChanges, SpotSearch } from './schema';

// Every query on spots. Outcomes that are not a spot come back as values, not HTTP errors. Ids match whether
// older code stored them as ObjectIds or hex strings.

export type { Caller } from '../../platform/tokens/service';

/** A search hit; `distanceMeters` comes from the database's $geoNear on a near search. */
export type FoundSpot = SpotDoc & { distanceMeters?: number };

const toPoint = ({ lat, lng }: { lat: number; lng: number }) => ({
  type: 'Point' as const,
  coordinates: [lng, lat] as [number, number],
});

/** The spot of this id, stored as an ObjectId or as its hex string by older code. */
export const spotById = (id: ObjectId): Document => ({ _id: { $in: idForms(id) } });

const readStored = (doc: SpotDoc | null) => readOne('spots', doc, readSpot) ?? null;

export const findSpot = async (store: Store, id: ObjectId) => readStored(await store.spots.findOne(spotById(id)));

export async function spotExists(store: Store, id: ObjectId): Promise<boolean> {
  return (await store.spots.countDocuments(spotById(id), { limit: 1 })) > 0;
}

export async function insertSpot(store: Store, createdBy: ObjectId, fields: NewSpot): Promise<Spot> {
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
  return readSpot(spot)!;
}

function searchFilter(query: SpotSearch): Filter<SpotDoc> {
  const filter: Filter<SpotDoc> = {};
  if (query.sport) filter.sports = query.sport;
  if (query.q) {
    const pattern = containsPattern(query.q);
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

/** The next page's position: the last row's distance on a near search, its id otherwise; none without a usable id. */
export function positionOf(spot: FoundSpot): Position | undefined {
  const id = readId(spot._id);
  return id && { n: readNumber(spot.distanceMeters) ?? 0, id };
}

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
const editable = (id: ObjectId, caller: Caller): Document =>
  caller.isAdmin ? spotById(id) : { ...spotById(id), createdBy: { $in: idForms(caller.userId) } };

/** After a guarded write matched nothing: was the spot missing, or someone else's? */
async function whyUnchanged(store: Store, id: ObjectId): Promise<'not-found' | 'not-yours'> {
  return (await spotExists(store, id)) ? 'not-yours' : 'not-found';
}

/** A place change refused because it contradicts these fields of the spot's stays. */
export type PlaceConflict = { outcome: 'place-conflict'; fields: string[] };

/**
 * Applies a change. A change of city, state or country must agree with the spot's stays
 * (interface spec: stays consistent with their spot): the stays are read, and the write's
 * filter pins `updatedAt` to what was read, which every stay write moves, so no stay can
 * slip in between. A lost race is read again.
 */
export async function updateSpot(
  store: Store,
  id: ObjectId,
  caller: Caller,
  changes: SpotChanges,
): Promise<Spot | 'not-found' | 'not-yours' | PlaceConflict> {
  const movesPlace = PLACE_FIELDS.some((field) => changes[field] !== undefined);
  for (let attempt = 0; attempt < 3; attempt++) {
    let pinned: Document = {};
    if (movesPlace) {
      const stored = await store.spots.findOne(editable(id, caller), {
        projection: { stays: 1, updatedAt: 1, city: 1, state: 1, country: 1 },
      });
      const spot = readStored(stored);
      if (!stored || !spot) return whyUnchanged(store, id);
      const place = Object.fromEntries(
        PLACE_FIELDS.map((field) => [
          field,
          changes[field] === undefined ? spot[field] : (changes[field] ?? undefined),
        ]),
      );
      const fields = [...new Set(spot.stays.flatMap((stay) => placeMismatches(stay, place)))];
      if (fields.length) return { outcome: 'place-conflict', fields };
      // Pinned as stored (a date, or whatever older code left, or nothing), so the write matches only that read.
      pinned = { updatedAt: stored.updatedAt === undefined ? { $exists: false } : stored.updatedAt };
    }
    const updated = await store.spots.findOneAndUpdate({ ...editable(id, caller), ...pinned }, changeUpdate(changes), {
      returnDocument: 'after',
    });
    if (updated) return readStored(updated) ?? 'not-found';
    if (!movesPlace) return whyUnchanged(store, id);
  }
  throw new Error(`spot ${id.toHexString()} place change lost 3 races in a row`);
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
  await store.spot_tombstones.updateOne(
    { _id: id },
    { $set: { deletedAt: now, updatedAt: now }, $setOnInsert: { createdAt: now } },
    { upsert: true },
  );
  return 'deleted';
}

// The browser extension's spot sync: one walk over spot changes and deletions in (time, _id) order.

/** A tombstone as a step of the walk; the service writes each, so one without a usable id or date is skipped. */
function tombstoneChange(stored: { _id?: unknown; deletedAt?: unknown }): Change[] {
  const id = readId(stored._id);
  const deletedAt = readDate(stored.deletedAt);
  return id && deletedAt ? [{ at: { n: deletedAt.getTime(), id }, deletedId: id }] : [];
}

export interface SyncPage {
  spots: Spot[];
  deletedIds: ObjectId[];
  next: SyncCursor;
  hasMore: boolean;
  reset: boolean;
}

/** One step of the walk; a stored spot that cannot be read still takes its place, showing nothing. */
type Change = { at: Position; spot?: Spot; deletedId?: ObjectId };

const DAY_MS = 86_400_000;
const LOWEST_ID = new ObjectId('000000000000000000000000');

const before = (a: Position, b: Position) => a.n < b.n || (a.n === b.n && a.id.toHexString() < b.id.toHexString());

/** Strictly after the position, so two changes in the same millisecond are told apart by id. */
const after = (field: string, from: Position | undefined) =>
  from ? { $or: [{ [field]: { $gt: new Date(from.n) } }, { [field]: new Date(from.n), _id: { $gt: from.id } }] } : {};

/**
 * Changes after `since`, oldest first. Without `since`, or when deletions the client has not seen
 * may already have expired (LIMITS.spotTombstoneDays), the walk restarts as a full sync (`reset`).
 */
export async function syncSpots(
  store: Store,
  since: SyncCursor | undefined,
  limit: number,
  now = Date.now(),
): Promise<SyncPage> {
  const reset = !since || since.coveredFrom < now - LIMITS.spotTombstoneDays * DAY_MS;
  const from = reset ? undefined : since;
  const [spots, tombstones] = await Promise.all([
    store.spots
      .find(after('updatedAt', from))
      .sort({ updatedAt: 1, _id: 1 })
      .limit(limit + 1)
      .toArray(),
    store.spot_tombstones
      .find(after('deletedAt', from))
      .sort({ deletedAt: 1, _id: 1 })
      .limit(limit + 1)
      .toArray(),
  ]);
  const changes: Change[] = [
    ...spots.map((stored): Change => {
      const spot = readStored(stored);
      const at = spot ? spot.updatedAt : (readDate(stored.updatedAt) ?? new Date(0));
      return { at: { n: at.getTime(), id: spot?._id ?? LOWEST_ID }, ...(spot ? { spot } : {}) };
    }),
    // A full sync starts from nothing, so deletions before it mean nothing to the client.
    ...(reset ? [] : tombstones.flatMap(tombstoneChange)),
  ].sort((a, b) => (before(a.at, b.at) ? -1 : before(b.at, a.at) ? 1 : 0));
  const page = changes.slice(0, limit);
  const hasMore = changes.length > limit;
  const last = page[page.length - 1]?.at ?? from ?? { n: 0, id: LOWEST_ID };
  // The last page stops short of the settle window, so late-stored writes stamped inside it are sent again.
  const settled = { n: now - LIMITS.spotSyncSettleMs, id: LOWEST_ID };
  let at = !hasMore && before(settled, last) ? settled : last;
  if (from && before(at, from)) at = from;
  const coveredFrom = Math.max(reset ? now : since!.coveredFrom, at.n);
  return {
    spots: page.flatMap((c) => (c.spot ? [c.spot] : [])),
    deletedIds: page.flatMap((c) => (c.deletedId ? [c.deletedId] : [])),
    next: { ...at, coveredFrom },
    hasMore,
    reset,
  };
}
