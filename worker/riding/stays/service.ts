import { type Document, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { idForms, readArray, readRecord } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { Caller } from '../../platform/tokens/service';
import type { StayDoc } from '../documents';
import { readSpot, type Spot } from '../spots/reader';
import { spotById } from '../spots/service';
import { foldKey, placeMismatches } from './normalise';
import { type RankedStay, rankingStages } from './ranking';
import { readStay, readStayId, type Stay } from './reader';
import { StayBody, type StayFields } from './schema';

// Every query on stays. Stays live inside spot documents (interface spec: `stays[]` on a spot),
// so every query here is on the `spots` collection, and each write is one conditional update
// of the spot: the filter re-asserts every rule, so a rule can never be lost to a race.

export type { Caller } from '../../platform/tokens/service';

type SpotRead = Pick<Spot, '_id' | 'name' | 'city' | 'state' | 'country' | 'createdBy' | 'stays'>;
export type Refused =
  | { outcome: 'spot-not-found' | 'not-found' | 'not-yours' | 'spot-full' }
  | { outcome: 'place-mismatch'; fields: string[] }
  | { outcome: 'duplicate'; field: 'name' | 'bookingUrl' };
type Written = { outcome: 'created' | 'replaced' | 'unchanged'; stay: Stay; spotName: string };

/** The fields a PUT replaces (every body field, plus the folded name they imply). */
const MUTABLE = [...Object.keys(StayBody.shape), 'nameKey'] as (keyof StayFields | 'nameKey')[];
// A write whose filter no longer matched lost a race to another write; re-reading settles it.
const ATTEMPTS = 3;

/** The spot with its stays read, and each stay's stored `_id`, `createdAt` and `createdBy` by its read id: writes pin those. */
async function spotWithStays(
  store: Store,
  spotId: ObjectId,
): Promise<{ spot: SpotRead; stored: Map<string, StoredStayKeys>; storedStays: unknown } | null> {
  const doc = await store.spots.findOne(spotById(spotId), {
    projection: { name: 1, city: 1, state: 1, country: 1, createdBy: 1, stays: 1 },
  });
  const spot = readSpot(doc);
  if (!doc || !spot) return null;
  const stored = new Map<string, StoredStayKeys>();
  for (const value of readArray(doc.stays)) {
    const stay = readRecord(value);
    const id = readStayId(stay?._id);
    if (stay && id) stored.set(id, { _id: stay._id, createdAt: stay.createdAt, createdBy: stay.createdBy });
  }
  return { spot, stored, storedStays: doc.stays };
}

/**
 * Older code stored some spots' `stays` as one stay or one text instead of a list: rewritten as the list it reads
 * as (the values kept as stored), so `$push` can add to it. The filter pins the value read: a concurrent repair
 * or write wins and this one changes nothing.
 */
async function repairStays(store: Store, spotId: ObjectId, storedStays: unknown): Promise<boolean> {
  if (storedStays === undefined || storedStays === null || Array.isArray(storedStays)) return false;
  await store.spots.updateOne({ ...spotById(spotId), stays: storedStays }, {
    $set: { stays: readArray(storedStays) },
  } as Document);
  return true;
}

/** What a stay write pins of the stored stay, as older code may have stored it (an ObjectId id, a text date). */
type StoredStayKeys = { _id: unknown; createdAt: unknown; createdBy: unknown };

const asStored = (value: unknown) => (value === undefined ? { $exists: false } : value);

/** The stored form of a stay's fields: as sent, plus the folded name the duplicate rule compares. */
const storedFields = (fields: StayFields) => ({ ...fields, nameKey: foldKey(fields.name) });

/** Matches a stay that the duplicate rule says is the same as `stay`. */
function sameStay(stay: { nameKey: string; type: string; bookingUrl?: string }): Document {
  const byUrl = stay.bookingUrl ? [{ bookingUrl: stay.bookingUrl }] : [];
  return { $or: [{ nameKey: stay.nameKey, type: stay.type }, ...byUrl] };
}

/** Which field makes `stay` a duplicate of one of `others`, if any. */
function duplicateField(stay: ReturnType<typeof storedFields>, others: Stay[]): 'name' | 'bookingUrl' | undefined {
  if (others.some((other) => other.nameKey === stay.nameKey && other.type === stay.type)) return 'name';
  if (stay.bookingUrl && others.some((other) => other.bookingUrl === stay.bookingUrl)) return 'bookingUrl';
  return undefined;
}

const mayEdit = (caller: Caller, spot: SpotRead, stay: Stay) =>
  caller.isAdmin || Boolean(spot.createdBy?.equals(caller.userId) || stay.createdBy?.equals(caller.userId));

/** The stay as stored now with its spot, if the caller may edit it; else why not. */
async function editableStay(
  store: Store,
  spotId: ObjectId,
  stayId: string,
  caller: Caller,
): Promise<
  { spot: SpotRead; stay: Stay; stored: StoredStayKeys } | { outcome: 'spot-not-found' | 'not-found' | 'not-yours' }
> {
  const found = await spotWithStays(store, spotId);
  if (!found) return { outcome: 'spot-not-found' };
  const stay = found.spot.stays.find((each) => each._id === stayId);
  const stored = found.stored.get(stayId);
  if (!stay || !stored) return { outcome: 'not-found' };
  return mayEdit(caller, found.spot, stay) ? { spot: found.spot, stay, stored } : { outcome: 'not-yours' };
}

/** The filter clause that lets only those `mayEdit` allows through (owner ids in either stored form). */
const editableBy = (caller: Caller, storedId: unknown): Document[] => {
  if (caller.isAdmin) return [];
  const callerId = { $in: idForms(caller.userId) };
  return [{ $or: [{ createdBy: callerId }, { stays: { $elemMatch: { _id: storedId, createdBy: callerId } } }] }];
};

/** Adds a stay to a spot unless the spot already has the same stay (interface spec: no duplicates). */
export async function createStay(
  store: Store,
  spotId: ObjectId,
  fields: StayFields,
  createdBy: ObjectId,
): Promise<Written | Refused> {
  const now = new Date();
  const stay: StayDoc = {
    _id: new ObjectId().toHexString(),
    ...storedFields(fields),
    createdAt: now,
    updatedAt: now,
    createdBy,
  };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await spotWithStays(store, spotId);
    if (!found) return { outcome: 'spot-not-found' };
    if (await repairStays(store, spotId, found.storedStays)) continue;
    const { spot } = found;
    const mismatched = placeMismatches(stay, spot);
    if (mismatched.length) return { outcome: 'place-mismatch', fields: mismatched };
    const field = duplicateField(stay, spot.stays);
    if (field) return { outcome: 'duplicate', field };
    if (spot.stays.length >= LIMITS.stay.perSpotMax) return { outcome: 'spot-full' };
    const { modifiedCount } = await store.spots.updateOne(
      {
        ...spotById(spotId),
        stays: { $not: { $elemMatch: sameStay(stay) } },
        [`stays.${LIMITS.stay.perSpotMax - 1}`]: { $exists: false },
      },
      // The spot changes with its stays: the extension's sync (worker/riding/spots/service.ts) reads updatedAt.
      { $push: { stays: stay }, $set: { updatedAt: now } },
    );
    if (modifiedCount === 1) return { outcome: 'created', stay: readStay(stay)!, spotName: spot.name };
  }
  throw new Error(`stay creation on spot ${spotId.toHexString()} lost ${ATTEMPTS} races in a row`);
}

/**
 * Replaces the mutable fields of a stay; `_id`, `createdAt` and `createdBy` are kept. A PUT that
 * changes nothing writes nothing, so `updatedAt` moves only with a change: the update's filter
 * requires that the stored stay differs from the wanted one, so that check and the write are one
 * atomic operation, and the same PUT twice leaves the same document.
 */
export async function replaceStay(
  store: Store,
  spotId: ObjectId,
  stayId: string,
  fields: StayFields,
  caller: Caller,
): Promise<Written | Refused> {
  const wanted: Record<string, unknown> = storedFields(fields);
  const wantedStay = Object.fromEntries(MUTABLE.map((key) => [key, wanted[key] ?? { $exists: false }]));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await editableStay(store, spotId, stayId, caller);
    if ('outcome' in found) return found;
    const { spot, stay, stored } = found;
    const mismatched = placeMismatches(fields, spot);
    if (mismatched.length) return { outcome: 'place-mismatch', fields: mismatched };
    const field = duplicateField(
      storedFields(fields),
      spot.stays.filter((each) => each._id !== stayId),
    );
    if (field) return { outcome: 'duplicate', field };
    if (MUTABLE.every((key) => JSON.stringify(stay[key]) === JSON.stringify(wanted[key]))) {
      return { outcome: 'unchanged', stay, spotName: spot.name };
    }
    // The whole element is written (one path: devdb's mingo refuses two $[s] paths in one update);
    // the filter pins the kept fields to what was read, so a concurrent detach is not undone.
    const kept = { _id: stored._id, createdAt: asStored(stored.createdAt), createdBy: asStored(stored.createdBy) };
    // Written back as the service writes a stay: a legacy one leaves this PUT readable (its id and dates typed).
    const next: StayDoc = {
      _id: stayId,
      ...storedFields(fields),
      createdAt: stay.createdAt,
      updatedAt: new Date(),
      ...(stay.createdBy ? { createdBy: stay.createdBy } : {}),
    };
    const updated = await store.spots.findOneAndUpdate(
      {
        ...spotById(spotId),
        $and: [
          { stays: { $elemMatch: kept } },
          ...editableBy(caller, stored._id),
          { stays: { $not: { $elemMatch: { _id: { $ne: stored._id }, ...sameStay(next) } } } },
          { stays: { $not: { $elemMatch: { _id: stored._id, ...wantedStay } } } },
        ],
      },
      { $set: { 'stays.$[s]': next, updatedAt: next.updatedAt } },
      { arrayFilters: [{ 's._id': stored._id }], returnDocument: 'after', projection: { name: 1, stays: 1 } },
    );
    const replaced = readSpot(updated)?.stays.find((each) => each._id === stayId);
    if (replaced) return { outcome: 'replaced', stay: replaced, spotName: readSpot(updated)!.name };
  }
  throw new Error(`stay ${stayId} replacement lost ${ATTEMPTS} races in a row`);
}

/** Removes a stay; a stay that is already gone is `not-found`, which the route answers as `deleted: false`. */
export async function deleteStay(
  store: Store,
  spotId: ObjectId,
  stayId: string,
  caller: Caller,
): Promise<{ outcome: 'deleted' } | Refused> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await editableStay(store, spotId, stayId, caller);
    if ('outcome' in found) return found;
    const storedId = found.stored._id;
    const { modifiedCount } = await store.spots.updateOne(
      { ...spotById(spotId), $and: [{ stays: { $elemMatch: { _id: storedId } } }, ...editableBy(caller, storedId)] },
      { $pull: { stays: { _id: storedId } }, $set: { updatedAt: new Date() } } as Document,
    );
    if (modifiedCount === 1) return { outcome: 'deleted' };
  }
  throw new Error(`stay ${stayId} deletion lost ${ATTEMPTS} races in a row`);
}

/** Which stays a ranked list holds: conditions on the spot, and on each stay's own fields. */
export interface StayFilter {
  spotId?: ObjectId;
  near?: { lat: number; lng: number; radiusKm: number };
  stay: Document;
}

// The radius MongoDB's $centerSphere divides by (kilometres), matching devdb/src/geo.ts.
const EARTH_RADIUS_KM = 6378.1;

/** A page of stays in the default ranking (worker/riding/stays/ranking.ts), `limit + 1` rows for the pager. */
export function rankedStays(
  store: Store,
  filter: StayFilter,
  page: { limit: number; after?: Parameters<typeof rankingStages>[0] },
): Promise<RankedStay[]> {
  const { spotId, near, stay } = filter;
  const hasStayConditions = Object.keys(stay).length > 0;
  const spotMatch: Document = {
    ...(spotId ? spotById(spotId) : {}),
    ...(near
      ? { location: { $geoWithin: { $centerSphere: [[near.lng, near.lat], near.radiusKm / EARTH_RADIUS_KM] } } }
      : {}),
    // The stay conditions on the spot first, so the multikey stays.* indexes narrow the spots.
    ...(hasStayConditions ? { stays: { $elemMatch: stay } } : { 'stays.0': { $exists: true } }),
  };
  const stayMatch = Object.fromEntries(Object.entries(stay).map(([key, value]) => [`stays.${key}`, value]));
  return store.spots
    .aggregate<RankedStay>([
      { $match: spotMatch },
      { $unwind: '$stays' },
      ...(hasStayConditions ? [{ $match: stayMatch }] : []),
      ...rankingStages(page.after, page.limit),
    ])
    .toArray();
}
