import type { ObjectId } from 'mongodb';

/** The ids once each, in first-seen order: ObjectIds of equal value are distinct objects, so a Set keeps them all. */
export const distinctIds = (ids: ObjectId[]): ObjectId[] => [
  ...new Map(ids.map((id) => [id.toHexString(), id])).values(),
];
