import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readArray,
  readId,
  readNumber,
  readRecord,
  readString,
  readStrings,
  updatedAtOf,
} from '../../platform/db/stored-values';
import { readStays, type Stay } from '../stays/reader';

/** A stored spot as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface Spot {
  _id: ObjectId;
  name: string;
  sports: string[];
  description?: string;
  address?: string;
  city?: string;
  state?: string;
  country?: string;
  /** Null when no usable point is stored (spots from before locations were required, or odd coordinates). */
  location: { lat: number; lng: number } | null;
  createdBy?: ObjectId;
  stays: Stay[];
  /** Metres from the database's $geoNear, on a near search. */
  distanceMeters?: number;
  createdAt: Date;
  updatedAt: Date;
}

const TEXT_FIELDS = ['description', 'address', 'city', 'state', 'country'] as const;

/** A stored GeoJSON point, `[longitude, latitude]`, when both numbers are on the globe. */
function readPoint(stored: unknown): Spot['location'] {
  const [lng, lat] = readArray(readRecord(stored)?.coordinates).map(readNumber);
  if (lng === undefined || lat === undefined) return null;
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

/** Reads a stored spot; undefined (unreadable) only without a usable `_id`. */
export function readSpot(stored: unknown): Spot | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  const texts = Object.fromEntries(
    TEXT_FIELDS.flatMap((field) => {
      const text = readString(doc[field]);
      return text ? [[field, text]] : [];
    }),
  ) as Partial<Pick<Spot, (typeof TEXT_FIELDS)[number]>>;
  const createdBy = readId(doc.createdBy);
  const distanceMeters = readNumber(doc.distanceMeters);
  return {
    _id,
    name: readString(doc.name) ?? '',
    sports: readStrings(doc.sports),
    ...texts,
    location: readPoint(doc.location),
    ...(createdBy ? { createdBy } : {}),
    stays: readStays(doc.stays),
    ...(distanceMeters !== undefined ? { distanceMeters } : {}),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
