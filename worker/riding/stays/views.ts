import type { ObjectId } from 'mongodb';
import { readId, readString } from '../../platform/db/stored-values';
import type { RankedStay } from './ranking';
import { readStay, type Stay } from './reader';

/** A stay as clients see it (read by worker/riding/stays/reader.ts), with its spot's id and name; nameKey stays inside. */
export function stayView(stay: Stay, spot: { spotId: ObjectId; spotName: string }) {
  const { _id, nameKey: _key, createdAt, updatedAt, createdBy, ...fields } = stay;
  return {
    _id,
    spotId: spot.spotId.toHexString(),
    spotName: spot.spotName,
    ...fields,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
    createdBy: createdBy ? createdBy.toHexString() : null,
  };
}

/** A ranked row as clients see it, or undefined when its stay or spot id cannot be read. */
export function rankedStayView(row: RankedStay) {
  const stay = readStay(row.stay);
  const spotId = readId(row.spotId);
  return stay && spotId && stayView(stay, { spotId, spotName: readString(row.spotName) ?? '' });
}
