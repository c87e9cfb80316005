import type { ObjectId } from 'mongodb';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Counts `bytes` against the rider's quota for the UTC day in one conditional `$inc`: a row already past what
 * fits does not match, the upsert then collides on `_id`, and the upload is refused; two uploads racing cannot
 * both pass on the same remainder.
 */
export async function chargeUsage(store: Store, userId: ObjectId, bytes: number, now = new Date()): Promise<boolean> {
  const max = LIMITS.media.dailyBytesPerRider;
  if (bytes > max) return false;
  const day = dayOf(now);
  try {
    await store.media_usage.updateOne(
      { _id: `${userId.toHexString()}:${day}`, bytes: { $lte: max - bytes } },
      { $inc: { bytes }, $setOnInsert: { userId, day } },
      { upsert: true },
    );
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** Gives back bytes charged for an upload that was then not stored. */
export async function refundUsage(store: Store, userId: ObjectId, bytes: number, now = new Date()): Promise<void> {
  await store.media_usage.updateOne({ _id: `${userId.toHexString()}:${dayOf(now)}` }, { $inc: { bytes: -bytes } });
}

/** Rows of days before yesterday are no longer read (yesterday's stays for uploads charged across midnight). */
export async function forgetOldUsage(store: Store, now: Date): Promise<number> {
  const yesterday = dayOf(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  return (await store.media_usage.deleteMany({ day: { $lt: yesterday } })).deletedCount;
}
