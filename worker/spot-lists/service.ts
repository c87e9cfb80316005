import type { ObjectId } from 'mongodb';
import type { Store } from '../db/store';

/** How many spot lists the user owns, counting no further than `upTo`. */
export function countOwnedLists(store: Store, userId: ObjectId, upTo: number): Promise<number> {
  return store.spotlists.countDocuments({ userId }, { limit: upTo });
}
