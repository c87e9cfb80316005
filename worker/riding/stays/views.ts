import type { ObjectId } from 'mongodb';
import type { StayDoc } from '../documents';

/** A stored stay as clients see it, with its spot's id and name; the folded nameKey stays inside. */
export function stayView(stay: StayDoc, spot: { spotId: ObjectId; spotName: string }) {
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
