import type { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Counts `bytes` against the rider's quota for the UTC day in one conditional `$inc`: a row already past what
 * fits does not match, the upsert then collides on `_id`, and the upload is refused; two uploads racing cannot
 * both pass on the same remainder. Answers the day charged (to refund it later), or null when over quota.
 */
export async function chargeUsage(
  store: Store,
  userId: ObjectId,
  bytes: number,
  now = new Date(),
): Promise<string | null> {
  const max = LIMITS.media.dailyBytesPerRider;
  if (bytes > max) return null;
  const day = dayOf(now);
  const charge = async () => {
    await store.media_usage.updateOne(
      { _id: `${userId.toHexString()}:${day}`, bytes: { $lte: max - bytes } },
      { $inc: { bytes }, $setOnInsert: { userId, day } },
      { upsert: true },
    );
    return day;
  };
  // A collision may be another first upload of the day inserting the row meanwhile: once more, the row now
  // exists, so the update either fits or the quota is really reached.
  return onDuplicateKey(charge, () => onDuplicateKey(charge, () => null));
}

/** Gives back bytes charged to `day` (as chargeUsage answered it) for an upload that was then not stored. */
export async function refundUsage(store: Store, userId: ObjectId, bytes: number, day: string): Promise<void> {
  await store.media_usage.updateOne({ _id: `${userId.toHexString()}:${day}` }, { $inc: { bytes: -bytes } });
}

/** Rows of days before yesterday are no longer read (yesterday's stays for uploads charged across midnight). */
export async function forgetOldUsage(store: Store, now: Date): Promise<number> {
  const yesterday = dayOf(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  return (await store.media_usage.deleteMany({ day: { $lt: yesterday } })).deletedCount;
}
