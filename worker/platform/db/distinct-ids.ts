import type { ObjectId } from 'mongodb';
import { readId } from './stored-values';

/**
 * The ids once each, in first-seen order: ObjectIds of equal value are distinct objects, so a Set keeps them all.
 * Takes stored references as they are (an id older code wrote as a hex string is the same id; a missing, null or
 * unusable one names no document and is left out), so a batch holding one such row still finds the others.
 */
export const distinctIds = (ids: readonly unknown[]): ObjectId[] => [
  ...new Map(ids.flatMap((stored) => readId(stored) ?? []).map((id) => [id.toHexString(), id])).values(),
];
