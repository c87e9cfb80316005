import type { ObjectId } from 'mongodb';
import { accountExists } from '../../accounts/users/service';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { readId, sameId } from '../../platform/db/stored-values';
import { unfollowBothWays } from '../follows/service';

// Every query on blocks: one row per blocker (`userId`) and blocked rider (a unique index). Ids match as stored by
// any code, an ObjectId or its hex string (worker/platform/db/id-match.ts), so a block older code stored still holds.

/** The block of `blockedUserId` by `userId`, in either id form. */
const blockOf = (userId: ObjectId, blockedUserId: ObjectId) => ({
  userId: anyIdOf(userId),
  blockedUserId: anyIdOf(blockedUserId),
});

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
        blockOf(userId, blockedUserId),
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
  await store.user_blocks.deleteMany(blockOf(userId, blockedUserId));
}

/** A page of the rider's blocks, newest first (`limit + 1` rows for the pager). */
export function listBlocks(store: Store, userId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.user_blocks
    .find({ userId: anyIdOf(userId), ...idPageFilter(page.cursor) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** Hex ids of everyone the rider blocked: a post's author takes their comments off the post for every reader. */
export async function blockedIdsOf(store: Store, readerId: ObjectId | null): Promise<Set<string>> {
  if (!readerId) return new Set();
  const rows = await store.user_blocks
    .find({ userId: anyIdOf(readerId) }, { projection: { _id: 0, blockedUserId: 1 } })
    .toArray();
  return new Set(rows.flatMap((row) => readId(row.blockedUserId)?.toHexString() ?? []));
}

/**
 * Hex ids of everyone the rider blocked and everyone who blocked the rider, in one read on both indexes: a block
 * hides each one's posts and comments from the other, and the real-time feed sends neither the other's events.
 */
export async function blockedEitherWay(store: Store, riderId: ObjectId | null): Promise<Set<string>> {
  if (!riderId) return new Set();
  const rows = await store.user_blocks
    .find(
      { $or: [{ userId: anyIdOf(riderId) }, { blockedUserId: anyIdOf(riderId) }] },
      { projection: { _id: 0, userId: 1, blockedUserId: 1 } },
    )
    .toArray();
  return new Set(
    rows.flatMap((row) => readId(sameId(row.userId, riderId) ? row.blockedUserId : row.userId)?.toHexString() ?? []),
  );
}

/** The blocks between the rider and any of the others, whichever made them. */
const blocksBetween = (userId: ObjectId, others: ObjectId[]) => ({
  $or: [
    { userId: anyIdOf(userId), blockedUserId: anyIdOf(...others) },
    { userId: anyIdOf(...others), blockedUserId: anyIdOf(userId) },
  ],
});

/** Hex ids of the riders among `others` on either side of a block with the rider: a read receipt crosses neither. */
export async function blockedEitherWayAmong(store: Store, userId: ObjectId, others: ObjectId[]): Promise<Set<string>> {
  if (!others.length) return new Set();
  const rows = await store.user_blocks
    .find(blocksBetween(userId, others), { projection: { _id: 0, userId: 1, blockedUserId: 1 } })
    .toArray();
  return new Set(
    rows.flatMap((row) => readId(sameId(row.userId, userId) ? row.blockedUserId : row.userId)?.toHexString() ?? []),
  );
}

/** Whether the rider and any of the others blocked one another, in either direction. */
export async function blockedBetween(store: Store, userId: ObjectId, others: ObjectId[]): Promise<boolean> {
  if (!others.length) return false;
  return (await store.user_blocks.countDocuments(blocksBetween(userId, others), { limit: 1 })) > 0;
}

/**
 * Two `$lookup` stages setting `byRider` to a block the rider made of anyone in the input document's `idsField`
 * and `ofRider` to one anyone there made of the rider (each at most one): blockedBetween's rule inside another
 * collection's read, so that read answers both at once. Each joins on the ids (`localField`) and then matches
 * the rider, so the server reads them as point lookups on the two compound indexes, however many riders the
 * rider has blocked. The rider's own id among the ids matches nothing: a rider cannot block themselves.
 */
export function blockBetweenLookups(userId: ObjectId, idsField: string, as: { byRider: string; ofRider: string }) {
  const atMostOne = [{ $limit: 1 }, { $project: { _id: 1 } }];
  return [
    {
      $lookup: {
        from: 'user_blocks',
        localField: idsField,
        foreignField: 'blockedUserId',
        pipeline: [{ $match: { userId } }, ...atMostOne],
        as: as.byRider,
      },
    },
    {
      $lookup: {
        from: 'user_blocks',
        localField: idsField,
        foreignField: 'userId',
        pipeline: [{ $match: { blockedUserId: userId } }, ...atMostOne],
        as: as.ofRider,
      },
    },
  ];
}

/** Hex ids of the riders among `others` who blocked the rider: a message push skips them (docs/message-pushes.md). */
export async function blockersAmong(store: Store, userId: ObjectId, others: ObjectId[]): Promise<Set<string>> {
  if (!others.length) return new Set();
  const rows = await store.user_blocks
    .find({ blockedUserId: anyIdOf(userId), userId: anyIdOf(...others) }, { projection: { _id: 0, userId: 1 } })
    .toArray();
  return new Set(rows.flatMap((row) => readId(row.userId)?.toHexString() ?? []));
}
