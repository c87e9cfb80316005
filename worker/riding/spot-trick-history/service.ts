import { type Document, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { idForms } from '../../platform/db/stored-values';
import type { SpotTrickHistoryDoc } from '../documents';
import { readSpotTrickLanding, type SpotTrickLanding } from './reader';

// Every query on spot trick history: who landed which trick at which spot, and when.

export async function recordLanding(
  store: Store,
  fields: Omit<SpotTrickHistoryDoc, '_id' | 'createdAt' | 'updatedAt'>,
): Promise<SpotTrickLanding> {
  const now = new Date();
  const landing: SpotTrickHistoryDoc = { _id: new ObjectId(), ...fields, createdAt: now, updatedAt: now };
  await store.spot_trick_history.insertOne(landing);
  return readSpotTrickLanding(landing)!;
}

/** A page of the spot's landings, most recently recorded first (`limit + 1` rows for the pager). */
export function listLandings(store: Store, spotId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.spot_trick_history
    .find({ spotId: { $in: idForms(spotId) }, ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) } as Document)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}
