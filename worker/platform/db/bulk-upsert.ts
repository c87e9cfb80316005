import { type AnyBulkWriteOperation, type Collection, type Document, MongoBulkWriteError } from 'mongodb';
import { isDuplicateKey } from './errors';

/**
 * Runs unordered upserts whose filters name a unique key, and answers how many inserted a new document.
 * Two writers upserting one key at once can both miss and race to insert: the unique index refuses the
 * second (E11000), which here means "someone else wrote it", so those statements are run once more, when
 * they find the winner's document. Any other write error is thrown.
 */
export async function upsertByUniqueKey<T extends Document>(
  collection: Collection<T>,
  operations: AnyBulkWriteOperation<T>[],
): Promise<number> {
  if (!operations.length) return 0;
  try {
    return (await collection.bulkWrite(operations, { ordered: false })).upsertedCount;
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    if (errors.some((e) => !isDuplicateKey({ code: e.code }))) throw err;
    const again = errors.map((e) => operations[e.index]!);
    const inserted = err.result.upsertedCount;
    return inserted + (await collection.bulkWrite(again, { ordered: false })).upsertedCount;
  }
}
