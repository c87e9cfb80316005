import type { Document, Filter, ObjectId, UpdateFilter } from 'mongodb';
import type { CollectionName } from './collections';
import type { Store } from './store';

/**
 * What deleting an account does to each collection that can hold personal data. Every
 * feature that stores something of a user's adds its collection here; a test scans all
 * collections after a deletion and fails on anything that still names the user.
 */
export type Cleanup =
  | { collection: CollectionName; remove: (userId: ObjectId) => Filter<Document> }
  | {
      collection: CollectionName;
      /** Removes the matching documents one at a time, so each one's follow-ups see exactly what went. */
      removeEach: (userId: ObjectId) => Filter<Document>;
      /** What a removed document (its before-image) leaves to do elsewhere: counters, dependants. */
      followUps: (removed: Document) => FollowUp[];
    }
  | {
      collection: CollectionName;
      detach: (userId: ObjectId) => {
        filter: Filter<Document>;
        /** Operators, or an update pipeline where the new value derives from the old one. */
        update: UpdateFilter<Document> | Document[];
        /** For updates inside arrays (`$[name]` paths). */
        arrayFilters?: Document[];
      };
    };

/**
 * A write another collection needs after a document went: a counter moves, or its dependants go; or a stored
 * file goes from the object store (an object by key, or an unfinished multipart upload aborted).
 */
export type FollowUp =
  | { collection: CollectionName; deleteMany: Filter<Document> }
  | {
      collection: CollectionName;
      /** Operators, or an update pipeline where the new value derives from the old one. */
      updateOne: { filter: Filter<Document>; update: UpdateFilter<Document> | Document[] };
    }
  | { object: { key: string; uploadId?: string } };

/** The object store files of personal data live in (the MEDIA R2 bucket). */
export interface ObjectStore {
  delete(key: string): Promise<void>;
  resumeMultipartUpload(key: string, uploadId: string): { abort(): Promise<void> };
}

/**
 * Runs the cleanups of every domain for one account, in the order given (a later rule may rely on an
 * earlier one: the companion's turns go before the rider's messages lose their sender). The account
 * itself is the accounts domain's to remove, last, so a failure half-way can be retried.
 */
export async function erasePersonalData(
  store: Store,
  objects: ObjectStore,
  userId: ObjectId,
  cleanups: readonly Cleanup[],
): Promise<void> {
  for (const cleanup of cleanups) {
    const collection = store.db.collection(cleanup.collection);
    if ('remove' in cleanup) {
      await collection.deleteMany(cleanup.remove(userId));
    } else if ('removeEach' in cleanup) {
      for (const { _id } of await collection.find(cleanup.removeEach(userId), { projection: { _id: 1 } }).toArray()) {
        // The before-image decides the follow-ups: a document another request removed meanwhile has none.
        const removed = await collection.findOneAndDelete({ _id });
        for (const step of removed ? cleanup.followUps(removed) : []) await runFollowUp(store, objects, step);
      }
    } else {
      const { filter, update, arrayFilters } = cleanup.detach(userId);
      await collection.updateMany(filter, update, arrayFilters ? { arrayFilters } : {});
    }
  }
}

async function runFollowUp(store: Store, objects: ObjectStore, step: FollowUp): Promise<void> {
  if ('object' in step) {
    const { key, uploadId } = step.object;
    if (uploadId) await objects.resumeMultipartUpload(key, uploadId).abort();
    else await objects.delete(key);
    return;
  }
  const collection = store.db.collection(step.collection);
  if ('deleteMany' in step) await collection.deleteMany(step.deleteMany);
  else await collection.updateOne(step.updateOne.filter, step.updateOne.update);
}

/** The collections the cleanups touch, for the deletion route's description. */
export const collectionsCleaned = (cleanups: readonly Cleanup[]): CollectionName[] => [
  ...new Set(cleanups.map((cleanup) => cleanup.collection)),
];
