import { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { UsageEventDoc } from '../documents';

// usage_events (usage metering): one row per AI call, written by the settle that ends it.

// The Store's accessor is typed for the planned collection's bare shape (worker/platform/db/collections.ts).
export const usageEvents = (store: Store) => store.db.collection<UsageEventDoc>('usage_events');

/** Writes the call's row once: a retried settle finds its callId taken and leaves the first. */
export async function writeUsageEvent(store: Store, row: Omit<UsageEventDoc, '_id'>): Promise<void> {
  await onDuplicateKey(
    () => usageEvents(store).insertOne({ _id: new ObjectId(), ...row }),
    () => undefined,
  );
}
