import type { ObjectId } from 'mongodb';
import { accountExists } from '../../accounts/users/service';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { unfollowBothWays } from '../follows/service';

// Every query on blocks: one row per blocker (`userId`) and blocked rider (a unique index).

/**
 * Blocks the rider (idempotent: a repeat keeps the first row and its date) and ends the follows between them both
 * ways; 'not-found' for no such account.
 */
export async function blockUser(
  store: Store,
  userId: ObjectId,
  blockedUserId: ObjectId,
): Promise<'blocked' | 'not-found'> {
  if (!(await accountExists(store, blockedUserId))) return 'not-found';
  const now = new Date();
  // Two blocks at once: the unique index lets one insert, and the other finds it blocked.
  await onDuplicateKey(
    () =>
      store.user_blocks.updateOne(
        { userId, blockedUserId },
        { $setOnInsert: { userId, blockedUserId, createdAt: now, updatedAt: now } },
        { upsert: true },
      ),
    () => undefined,
  );
  // After the block is stored, so a follow racing it is refused or removed here.
  await unfollowBothWays(store, userId, blockedUserId);
  return 'blocked';
}

/** Lifts the block (idempotent). */
export async function unblockUser(store: Store, userId: ObjectId, blockedUserId: ObjectId): Promise<void> {
  await store.user_blocks.deleteOne({ userId, blockedUserId });
}

/** A page of the rider's blocks, newest first (`limit + 1` rows for the pager). */
export function listBlocks(store: Store, userId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.user_blocks
    .find({ userId, ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** Hex ids of everyone the reader blocked: one indexed read per request, for hiding their posts and comments. */
export async function blockedIdsOf(store: Store, readerId: ObjectId | null): Promise<Set<string>> {
  if (!readerId) return new Set();
  const rows = await store.user_blocks
    .find({ userId: readerId }, { projection: { _id: 0, blockedUserId: 1 } })
    .toArray();
  return new Set(rows.map((row) => row.blockedUserId.toHexString()));
}

/** Hex ids of everyone who blocked the rider: the real-time feed never sends them the rider's posts. */
export async function blockersOf(store: Store, userId: ObjectId): Promise<string[]> {
  const rows = await store.user_blocks.find({ blockedUserId: userId }, { projection: { _id: 0, userId: 1 } }).toArray();
  return rows.map((row) => row.userId.toHexString());
}

/** Whether the rider and any of the others blocked one another, in either direction. */
export async function blockedBetween(store: Store, userId: ObjectId, others: ObjectId[]): Promise<boolean> {
  if (!others.length) return false;
  const found = await store.user_blocks.countDocuments(
    {
      $or: [
        { userId, blockedUserId: { $in: others } },
        { userId: { $in: others }, blockedUserId: userId },
      ],
    },
    { limit: 1 },
  );
  return found > 0;
}

/**
 * A `$lookup` stage setting `as` to one block (or none) between the rider and the other ids of the input document's
 * `idsField`, either way: blockedBetween's rule inside another collection's read, so that read answers both at once.
 * Its first `$match` is on the rider alone, so it runs on the userId and blockedUserId indexes.
 */
export function blockBetweenLookup(userId: ObjectId, idsField: string, as: string) {
  return {
    $lookup: {
      from: 'user_blocks',
      let: { others: { $setDifference: [`$${idsField}`, [userId]] } },
      pipeline: [
        { $match: { $or: [{ userId }, { blockedUserId: userId }] } },
        {
          $match: {
            $expr: {
              $or: [
                { $and: [{ $eq: ['$userId', userId] }, { $in: ['$blockedUserId', '$$others'] }] },
                { $and: [{ $eq: ['$blockedUserId', userId] }, { $in: ['$userId', '$$others'] }] },
              ],
            },
          },
        },
        { $limit: 1 },
        { $project: { _id: 1 } },
      ],
      as,
    },
  };
}

/** Hex ids of the riders among `others` who blocked the rider: a message push skips them (docs/message-pushes.md). */
export async function blockersAmong(store: Store, userId: ObjectId, others: ObjectId[]): Promise<Set<string>> {
  if (!others.length) return new Set();
  const rows = await store.user_blocks
    .find({ blockedUserId: userId, userId: { $in: others } }, { projection: { _id: 0, userId: 1 } })
    .toArray();
  return new Set(rows.map((row) => row.userId.toHexString()));
}
