import type { Store } from '../../platform/db/store';
import { readEach } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import { readExport } from './read-export';

/**
 * Deletes the files of ready exports past their expiry and marks them `expired`. The file goes first: a run that
 * dies between the two leaves the export ready with no file, and the next run deletes nothing and marks it.
 */
export async function expireExports(store: Store, bucket: R2Bucket, now: Date): Promise<number> {
  const due = { state: 'ready' as const, dueAt: { $lte: now } };
  const docs = await store.data_exports.find(due).sort({ dueAt: 1 }).limit(LIMITS.dataExports.cleanupBatch).toArray();
  let expired = 0;
  for (const stale of readEach('data_exports', docs, readExport)) {
    if (stale.key) await bucket.delete(stale.key);
    const { modifiedCount } = await store.data_exports.updateOne(
      { _id: stale._id, ...due },
      { $set: { state: 'expired', updatedAt: now } },
    );
    expired += modifiedCount;
  }
  return expired;
}
